/**
 * Small hand-written Korean → English and Thai → English glossaries of generic technical and
 * office vocabulary, and the reading of a request through them (and through the Russian one,
 * russianGlossary.ts). Neither npm nor Debian carries a Korean or Thai dictionary to ship, and the encoder reads English only: without these, a request
 * such as "취약한 의존성을 안전한 버전으로 올리고 테스트해줘" is matched on its Latin words alone
 * (docs/retrieval-log.md, section 38). One line per word: the word, then English alternatives
 * separated by `|`, best first. Generic vocabulary only: nothing here names a skill or a request.
 *
 * Korean writes words apart and ends them with particles and verb endings (구현하고, 계획만): a
 * word is read from its start, one glossary word after another, and what follows the last one is
 * an ending. Thai writes no space between words: a run is read left to right, the longest word at
 * each place; a letter no word starts at is skipped, and a word of two letters is read only where
 * the one before it ended (หา in ปัญหา is no "find").
 */
import { RUSSIAN_GLOSSARY, russianStem } from './russianGlossary';
import { longestEntry, parseGlossary } from './stemGlossary';

const KOREAN = `
구현 implement|implementation
계획 plan
설계 design
검증 verify|validation
확인 check|confirm
테스트 test
회귀 regression
리뷰 review
검토 review
코드 code
수정 fix|modify
고치 fix
고쳐 fix
버그 bug
오류 error
에러 error
실패 fail|failure
원인 root cause|cause
조사 investigate
분석 analyze|analysis
진단 diagnose
디버그 debug
디버깅 debugging
장애 incident|outage
복구 recovery|restore
로그 log
배포 deploy|deployment
릴리스 release
릴리즈 release
출시 release|launch
게시 publish
빌드 build
커밋 commit
브랜치 branch
병합 merge
머지 merge
충돌 conflict
저장소 repository
레포 repo
이슈 issue
코멘트 comment
댓글 comment
승인 approve|approval
태그 tag
기능 feature
요구사항 requirements
명세 spec|specification
스펙 spec
문서 document|docs
문서화 documentation
작성 write|draft
정리 organize|summarize
요약 summary|summarize
보고 report
보고서 report
체크리스트 checklist
절차 procedure
롤백 rollback
마이그레이션 migration
업그레이드 upgrade
업데이트 update
의존성 dependency
의존 dependency
라이브러리 library
패키지 package
버전 version
보안 security
취약점 vulnerability
취약 vulnerable
안전 safe|secure
올리 upgrade|bump
올려 upgrade|bump
바꾸 change
바꿔 change
감사 audit
감사합니다 thanks
감사해요 thanks
감사드립니다 thanks
인증 authentication|auth
권한 permission
경로 path
순회 traversal
위협 threat
공격 attack
성능 performance
지연 latency|delay
시간 time
응답 response
속도 speed
메모리 memory
사용량 usage
측정 measure
기준값 baseline
개선 improve|improvement
최적화 optimize|optimization
캐시 cache
번들 bundle
크기 size
실험 experiment
데이터 data
데이터베이스 database
스키마 schema
스크립트 script
손실 loss
위험 risk
스테이징 staging
운영 production|operations
프로덕션 production
환경 environment
설정 config|settings
구성 configuration
설치 install
초기화 initialize
생성 create|generate
생성자 constructor
주입 injection
만들 make|create
만드 make|create
추가 add
삭제 delete|remove
제거 remove
변경 change
변경사항 changes
이동 move
복사 copy
검색 search
찾 find
실행 run|execute
자동화 automation
워크플로 workflow
워크플로우 workflow
파이프라인 pipeline
서버 server
서비스 service
모듈 module
경계 boundary
순환 circular|cycle
위반 violation
모델링 modeling
저장 save|store
파일 file
폴더 folder
디렉터리 directory
프로젝트 project
정책 policy
보호 protection
게이트 gate
통과 pass
후보 candidate
노트 notes
새 new
새로운 new
새로고침 refresh
새벽 early morning
현재 current
간헐적 intermittent|flaky
메이저 major
정적 static
근거 evidence
수집 collect
종합 comprehensive
준비 prepare|readiness
상태 status|state
모범 best practice
공식 official
지원 support
멀티테넌트 multi-tenant
신뢰 trust
연결 connect
화면 screen
페이지 page
컴포넌트 component
함수 function
클래스 class
변수 variable
타입 type
인터페이스 interface
쿼리 query
요청 request
토큰 token
비밀번호 password
로그인 login
사용자 user
고객 customer
관리 manage|management
모니터링 monitoring
알림 alert|notification
스케줄 schedule
질문 question
설명 explain|explanation
번역 translate|translation
이미지 image
동영상 video
영상 video
음성 audio|voice
차트 chart
엑셀 excel
프레젠테이션 presentation
슬라이드 slides
이메일 email
메일 email
회의 meeting
일정 schedule|calendar
등록 register|file
추출 extract
스캔 scan
영수증 receipt
송장 invoice
청구서 invoice
인보이스 invoice
표 table
표준 standard
표시 display|show
표현 expression
텍스트 text
문자 text
양식 form
필드 field
변환 convert|conversion
분할 split
압축 compress
다운로드 download
업로드 upload
크롤링 crawl
스크래핑 scrape
웹 web
웹훅 webhook
사이트 site|website
그래프 graph|chart
시각화 visualization|visualize
대시보드 dashboard
계산 calculate
통계 statistics
모델 model
학습 training|train
예측 predict|forecast
분류 classify|classification
블로그 blog
게시물 post
회의록 meeting notes
계약서 contract
계약 contract
법률 legal
결제 payment
주문 order
재고 inventory
상품 product
추천 recommend
리팩터링 refactor
리팩토링 refactor
컨테이너 container
도커 docker
쿠버네티스 kubernetes
클라우드 cloud
`;

const THAI = `
สร้าง create
แก้ไข fix|edit
แก้ fix|edit
ลบ delete|remove
ย้าย move
กู้คืน recover|restore
กู้ recover|restore
เก็บ keep|store|save
อัปเดต update
อัพเดท update
ตั้งค่า configure|settings
ตั้ง set up
ใหม่ new
ตรวจสอบ verify|check
ตรวจ check|inspect
ค้นหา search|find
หา find
ประวัติ history
เปลี่ยนชื่อ rename
เปลี่ยน change
แยก split
รวม merge|combine
ผสาน merge
ไฟล์ file
งาน work|task
ปัจจุบัน current
ผิด wrong
วิเคราะห์ analyze
วางแผน plan
แผน plan
ยกเลิก cancel|abort|undo
ซ่อม repair|fix
เสีย broken|corrupted
ย้อนกลับ revert|rollback
ทดสอบ test
ติดตั้ง install
สำรอง backup
ข้อมูล data
ฐานข้อมูล database
ผลกระทบ impact
ปลอดภัย safe|safely
ความปลอดภัย security
หลาย multiple
เฉพาะ only|specific
ระบุ specified|specify
ยืนยัน confirm|confirmation
ขนาด size
ใหญ่ large
นโยบาย policy
เส้นทาง path
กรอง filter
ข้อกำหนด requirement
ความต้องการ requirement
เอกสาร document|docs
รายงาน report
สรุป summarize|summary
ทบทวน review
รีวิว review
ความเร็ว speed
ประสิทธิภาพ performance
ช้า slow
วัด measure
ค้าง stuck|pending
ข้อผิดพลาด error
ผิดพลาด error
ล้มเหลว fail|failure
สาเหตุ root cause|cause
แก้ปัญหา troubleshoot
ปัญหา problem|issue
ลูกค้า customer
ผู้ใช้ user
เผยแพร่ publish|release
ปล่อย release
แท็ก tag
สาขา branch
คอมมิต commit
ที่เก็บ repository
คลัง repository
สูญหาย lost
หาย lost|missing
สถานะ status|state
ชื่อ name
ใช้ use
ออฟไลน์ offline
รูปภาพ image
ภาพ image
วิดีโอ video
เว็บไซต์ website
เว็บ web
หน้าเว็บ web page
อีเมล email
ประชุม meeting
ตาราง table|schedule
แปล translate
เขียน write
อ่าน read
ส่ง send|submit
ดาวน์โหลด download
อัปโหลด upload
เชื่อมต่อ connect
ตรวจจับ detect
ขัดแย้ง conflict
แบ่ง split
บีบอัด compress
โครงสร้าง structure
ทำความสะอาด clean up
ล้าง clean|clear
ย้อน back|revert
ก่อน before|first
หลัง after
แล้ว then
ดึง extract|pull
สกัด extract
ใบเสร็จ receipt
ใบแจ้งหนี้ invoice
ข้อความ text|message
แบบฟอร์ม form
แปลง convert
กราฟ graph|chart
แผนภูมิ chart
คำนวณ calculate
สถิติ statistics
สัญญา contract
ชำระเงิน payment
คำสั่งซื้อ order
สินค้า product
ภาษา language
`;

/** Korean word → English alternatives, best first. */
export const KOREAN_GLOSSARY = parseGlossary(KOREAN);
/** Thai word → English alternatives, best first. */
export const THAI_GLOSSARY = parseGlossary(THAI);

const LONGEST_KOREAN = longestEntry(KOREAN_GLOSSARY);
const LONGEST_THAI = longestEntry(THAI_GLOSSARY);

/** One glossary word found in a text: where, what it is, and its English. */
export interface GlossedWord {
  at: number;
  source: string;
  english: readonly string[];
}

/** The longest glossary word starting at `i` of `text`, or null. */
function longestAt(text: string, i: number, glossary: ReadonlyMap<string, readonly string[]>, longest: number): string | null {
  for (let n = Math.min(longest, text.length - i); n >= 1; n--) {
    const w = text.slice(i, i + n);
    if (glossary.has(w)) return w;
  }
  return null;
}

/** Glossary words of a run of Hangul (one written word): from its start, one after another. */
function koreanWord(run: string, offset: number): GlossedWord[] {
  const out: GlossedWord[] = [];
  let i = 0;
  while (i < run.length) {
    const w = longestAt(run, i, KOREAN_GLOSSARY, LONGEST_KOREAN);
    if (!w) break;
    out.push({ at: offset + i, source: w, english: KOREAN_GLOSSARY.get(w)! });
    i += w.length;
  }
  return out;
}

/** Glossary words of a run of Thai letters: the longest word at each place, short words only where one ended. */
function thaiRun(run: string, offset: number): GlossedWord[] {
  const out: GlossedWord[] = [];
  let i = 0;
  let joined = true;
  while (i < run.length) {
    const w = longestAt(run, i, THAI_GLOSSARY, LONGEST_THAI);
    if (w && (joined || w.length >= 3)) {
      out.push({ at: offset + i, source: w, english: THAI_GLOSSARY.get(w)! });
      i += w.length;
      joined = true;
    } else {
      i++;
      joined = false;
    }
  }
  return out;
}

/** A word in Cyrillic letters: its glossary stem (russianGlossary.ts), when it has one. */
function cyrillicWord(run: string, offset: number): GlossedWord[] {
  const stem = russianStem(run);
  return stem ? [{ at: offset, source: run, english: RUSSIAN_GLOSSARY.get(stem)! }] : [];
}

/** Whether a text has Hangul, Thai or Cyrillic letters, which these glossaries read. */
export function hasGlossedScript(text: string): boolean {
  return /[\p{Script=Hangul}\p{Script=Thai}\p{Script=Cyrillic}]/u.test(text);
}

/**
 * The glossary words of a request's Hangul, Thai and Cyrillic runs, and the request in English as
 * far as they read it: every other run kept as written, each Hangul, Thai or Cyrillic run replaced
 * by the first English of the words found in it (a run with none is left out). Null when the
 * request has none of these scripts, or the glossaries read none of it.
 */
export function glossRequest(text: string): { readAs: string; words: GlossedWord[] } | null {
  if (!hasGlossedScript(text)) return null;
  const words: GlossedWord[] = [];
  const parts: string[] = [];
  for (const m of text.matchAll(/(\p{Script=Hangul}+)|(\p{Script=Thai}+)|(\p{Script=Cyrillic}+)|([^\p{Script=Hangul}\p{Script=Thai}\p{Script=Cyrillic}]+)/gu)) {
    if (m[4] !== undefined) {
      parts.push(m[4]);
      continue;
    }
    const found = m[1] !== undefined ? koreanWord(m[1], m.index!) : m[2] !== undefined ? thaiRun(m[2], m.index!) : cyrillicWord(m[3], m.index!);
    words.push(...found);
    if (found.length) parts.push(` ${found.map((w) => w.english[0]).join(' ')} `);
    else parts.push(' ');
  }
  if (!words.length) return null;
  return { readAs: parts.join('').replace(/\s+/g, ' ').replace(/\s+([.,!?;:])(?=\s|$)/g, '$1').trim(), words };
}

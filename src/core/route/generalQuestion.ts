/**
 * Requests that ask what something is or how it works, in general ("Explain how Git rebase works
 * compared to merge", "What is the difference between TCP and UDP"), are answered from what the
 * agent knows: no skill's procedure is needed, and authors test exactly that ("should not
 * trigger": 4 of the 23 no-skill requests of bench/realsuites' tune half and dotnet are such
 * questions). A skill that offers explanations ("Explains ...", "answers questions about ...")
 * still answers them.
 *
 * Narrow on purpose. The question must open the request and refer to nothing of the user's
 * ("this tag object", "my repo", "our service", "attached"), and ask for nothing to be done
 * ("... and fix this conflict", "how to build"): "Why does fetch use one URL but push use
 * another?" is about the user's repository, so "why" questions are not read as general at all,
 * nor are "how do I ..." questions, which ask how to do a task.
 */

import { splitNegated } from '../analysis/facets';

/** An opening that asks what something is or how it works. */
const OPENING = [
  // "Explain how X works", "Describe the history of ...", "What is X", "How does X work".
  /^(?:(?:can|could|would) you\s+|please\s+)?(?:explain|describe|tell me about)\s+(?!how to\b|how (?:i|we|you) (?:can|should|do|would)\b)/i,
  /^(?:(?:can|could|would) you (?:tell me|explain)\s+)?(?:what(?:'s| is| are| was| were)|how does|how did)\s+(?!(?:the )?(?:best|right|easiest|fastest|a good|the proper) way\b|wrong\b)/i,
  // 解释一下…的原理 / 什么是… / …是什么？
  /^(?:请|麻烦)?(?:解释|介绍|讲讲|讲解|说说|说明)(?:一下)?/u,
  /^(?:请问)?什么是/u,
  // 설명해줘 (explain) after "how … works" / "what … is" / "the difference".
  /(?:어떻게 (?:동작|작동)하는지|무엇인지|뭔지|차이(?:를|가)?).{0,12}설명해\s*(?:줘|주세요)/u,
];

/**
 * Words that point at the user's own material or at the live state of something: the question is
 * about that ("What are the open PRs assigned to me?", "What is the status of the deploy?"), not
 * about how something works in general.
 */
const DEICTIC =
  /(?<![\p{L}])(?:this|these|that one|those|my|our|mine|ours|here|here's|attached|below|above|following|i|i'm|i've|me|we|we're|we've|us|current(?:ly)?|existing|status|open|failing|pending|latest|today|yesterday|now)(?![\p{L}])|这个|这段|这些|这里|我的|我们|下面|以下|附件|上面|当前|현재|(?<![\p{L}])(?:이|저|내|우리)(?=\s)/iu;

/** Words that ask for something to be done beside the answer. */
const TASK =
  /(?<![\p{L}])(?:fix|write|create|build|implement|generate|draft|set up|setup|refactor|review|audit|migrate|deploy|add|update|convert|run|debug|make|design|plan|install|configure|test|optimi[sz]e|rewrite)(?![\p{L}])|(?:修复|编写|写一|生成|创建|实现|部署|迁移|重构|审查|配置|安装|运行)/iu;

/**
 * Whether a request asks, in general, what something is or how it works (see the module's note):
 * a question that opens the request, names nothing of the user's and asks for nothing to be done.
 */
export function generalQuestion(query: string): boolean {
  const text = query.trim();
  if (!text || text.length > 300) return false;
  if (!OPENING.some((re) => re.test(text))) return false;
  // The opening's own verb ("explain", "describe") is not a task; what follows it may be.
  const rest = text.replace(/^\S+\s*/, '');
  return !DEICTIC.test(text) && !TASK.test(rest);
}

/** What a skill that answers questions says of itself. */
const EXPLAINS =
  /(?<![\p{L}])(?:explain(?:s|ing|ed)?|explanations?|teach(?:es|ing)?|tutor(?:s|ing)?|learn(?:s|ing)?|concepts?|questions?|q&a|faq|knowledge|answers?|understand(?:s|ing)?|how (?:[\p{L}-]+ ){0,3}works?)(?![\p{L}])|解释|讲解|概念|原理|问答|答疑|学习|教学|知识/iu;

/**
 * Whether a skill offers explanations or answers: its name or description says so, outside what
 * the description says it is not for ("Do not use it ... to answer ordinary Spring questions").
 */
export function offersExplanations(name: string, description: string): boolean {
  return EXPLAINS.test(`${name.replace(/[-_]+/g, ' ')} ${splitNegated(description).positive}`);
}

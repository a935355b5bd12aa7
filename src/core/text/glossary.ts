/**
 * A small hand-written Chinese → English glossary of generic technical and office vocabulary.
 * CC-CEDICT often lacks the computing sense of a word or lists it late ("集群" gives only
 * "clan; to flock together", "提取" gives "to withdraw (money)" first); an entry here wins over
 * the dictionary. One line per word: the simplified word, then English words separated by `|`
 * (alternatives, best first; a phrase may have several words). Generic vocabulary only: nothing
 * here names a particular skill or request.
 */
const LINES = `
集群 cluster
节点 node
容器 container
镜像 image|docker image
部署 deploy|deployment
发布 release|publish
上线 deploy|release|launch
回滚 rollback
灰度 canary|gradual rollout
扩容 scale up|autoscale
缩容 scale down
负载均衡 load balancer
服务器 server
服务 service
微服务 microservice
网关 gateway
代理 proxy|agent
智能体 agent
反向代理 reverse proxy
域名 domain|dns
证书 certificate|tls
端口 port
防火墙 firewall
网络 network
带宽 bandwidth
延迟 latency
吞吐 throughput
吞吐量 throughput
并发 concurrency|concurrent
高并发 high concurrency
性能 performance
优化 optimize|optimization
调优 tuning|optimize
瓶颈 bottleneck
缓存 cache
队列 queue
消息队列 message queue
异步 async|asynchronous
同步 sync|synchronous
线程 thread
进程 process
内存 memory
内存泄漏 memory leak
泄漏 leak
磁盘 disk
存储 storage
备份 backup
恢复 restore|recovery
迁移 migration|migrate
监控 monitoring|monitor
告警 alert|alerting
报警 alert
日志 log|logs
链路 trace|tracing
追踪 tracing|trace
指标 metrics
可观测性 observability
故障 incident|failure|outage
事故 incident|postmortem
排查 troubleshoot|debug
排障 troubleshoot
定位 diagnose|locate
报错 error
错误 error
异常 exception|error
崩溃 crash
超时 timeout
重启 restart
重试 retry
宕机 outage|down
运维 operations|devops
流水线 pipeline
持续集成 continuous integration|ci
持续部署 continuous deployment|cd
构建 build
编译 compile|build
打包 package|bundle
依赖 dependency|dependencies
版本 version
升级 upgrade
降级 downgrade
配置 configuration|config
环境变量 environment variable
脚本 script
命令 command
命令行 command line|cli
终端 terminal|shell
代码 code
源码 source code
源代码 source code
代码库 codebase|repository
仓库 repository|repo
分支 branch
合并 merge
提交 commit|submit
拉取请求 pull request
合并请求 merge request|pull request
冲突 conflict
评审 review
审查 review|audit
代码审查 code review
重构 refactor|refactoring
函数 function
方法 method
类 class
接口 api|interface
参数 parameter|argument
返回值 return value
变量 variable
类型 type
注释 comment|docstring
文档 documentation|document|docs
注解 annotation
模块 module
组件 component
框架 framework
库 library
插件 plugin|extension
扩展 extension
工具 tool
调试 debug|debugging
断点 breakpoint
测试 test|testing
单元测试 unit test
集成测试 integration test
端到端 end-to-end|e2e
用例 test case|use case
测试用例 test case
覆盖率 coverage
回归 regression
自动化 automation|automate
爬虫 scraper|crawler
抓取 scrape|fetch
爬取 scrape|crawl
网页 web page|webpage
网站 website
前端 frontend
后端 backend
全栈 full stack
页面 page
界面 ui|interface
用户界面 user interface|ui
交互 interaction
组件库 component library
样式 style|css
布局 layout
响应式 responsive
动画 animation
按钮 button
弹窗 modal|dialog
路由 routing|router
状态管理 state management
渲染 render|rendering
浏览器 browser
移动端 mobile
小程序 mini program
应用 app|application
安卓 android
苹果 apple|ios
数据库 database
数据表 table|database table
表 table
表格 table|spreadsheet
电子表格 spreadsheet
查询 query
索引 index
字段 field|column
主键 primary key
事务 transaction
存储过程 stored procedure
慢查询 slow query
数据 data
数据集 dataset
数据分析 data analysis
分析 analysis|analyse
清洗 cleaning|clean
数据清洗 data cleaning
可视化 visualization|visualize
图表 chart|graph
折线图 line chart
柱状图 bar chart
饼图 pie chart
散点图 scatter plot
仪表盘 dashboard
看板 dashboard|board
报表 report
周报 weekly report
日报 daily report
月报 monthly report
整理 organize|compile
复利 compound interest
报告 report
统计 statistics
回归分析 regression
模型 model
训练 training|train
微调 fine-tuning|fine-tune
推理 inference|reasoning
预测 prediction|forecast
机器学习 machine learning
深度学习 deep learning
神经网络 neural network
大模型 llm|large language model
语言模型 language model
提示词 prompt
提示 prompt|hint
向量 vector|embedding
嵌入 embedding
检索 retrieval|search
搜索 search
召回 recall|retrieval
排序 ranking|sort
知识库 knowledge base
问答 question answering|qa
对话 conversation|chat
聊天 chat
机器人 bot|robot
评估 evaluation|evaluate
评测 benchmark|evaluation
基准 benchmark|baseline
文件 file
文件夹 folder|directory
目录 directory|folder
路径 path
格式 format
转换 convert|conversion
导出 export
导入 import
上传 upload
下载 download
压缩 compress|zip
解压 extract|unzip
解析 parse|parsing
提取 extract|extraction
抽取 extract
识别 recognition|detect
文字识别 ocr
扫描 scan|scanned
扫描件 scanned document
生成 generate|create
创建 create
编辑 edit|editing
修改 modify|edit
删除 delete|remove
替换 replace
批量 batch|bulk
模板 template
幻灯片 slides|presentation
演示文稿 presentation|slides
演示 presentation|demo
文稿 document|manuscript
表单 form
发票 invoice
合同 contract
简历 resume|cv
邮件 email
邮箱 email|mailbox
日历 calendar
会议 meeting
纪要 minutes|notes
会议纪要 meeting notes|minutes
笔记 notes
待办 todo|task
任务 task
项目 project
需求 requirements|requirement
产品 product
用户 user
客户 customer|client
流程 workflow|process
工作流 workflow
审批 approval
通知 notification
消息 message
推送 push notification|push
图片 image|picture
图像 image
照片 photo
截图 screenshot
封面 cover|cover image
海报 poster
插图 illustration
配图 illustration|image
漫画 comic
图标 icon
设计 design
设计稿 design mockup|mockup
原型 prototype|wireframe
视觉 visual
配色 color palette|color scheme
颜色 color
字体 font
排版 typography|layout
视频 video
剪辑 video editing|edit
字幕 subtitles|captions
音频 audio
语音 speech|voice
转录 transcription|transcribe
配音 voiceover|dubbing
音乐 music
播客 podcast
直播 live stream
翻译 translate|translation
中文 chinese
英文 english
写作 writing|write
文章 article|post
博客 blog
公众号 wechat official account|wechat
微信 wechat
小红书 xiaohongshu|rednote
微博 weibo
推文 tweet|post
帖子 post
社交媒体 social media
标题 title|headline
摘要 summary|abstract
总结 summarize|summary
大纲 outline
草稿 draft
润色 polish|proofread
校对 proofread
改写 rewrite
营销 marketing
推广 promotion|marketing
广告 ad|advertising
文案 copywriting|copy
品牌 brand|branding
竞品 competitor|competitive analysis
调研 research
研究 research
论文 paper|research paper
文献 literature|papers
引用 citation|cite
学术 academic
实验 experiment
科学 science
化学 chemistry
生物 biology
基因 gene|genomics
蛋白质 protein
分子 molecule|molecular
医学 medical
临床 clinical
财务 finance|financial
金融 finance
会计 accounting
预算 budget
报税 tax filing|tax
税 tax
投资 investment
股票 stock
估值 valuation
财报 financial statements|earnings
收入 revenue|income
成本 cost
利润 profit
销售 sales
电商 ecommerce
订单 order
支付 payment
价格 price|pricing
法律 legal|law
合规 compliance
隐私 privacy
安全 security
漏洞 vulnerability
渗透测试 penetration testing|pentest
攻击 attack
威胁 threat
威胁建模 threat modeling
加密 encryption|encrypt
解密 decrypt
密码 password
密钥 key|secret
权限 permission|access control
认证 authentication|auth
鉴权 authorization|auth
登录 login
注册 signup|register
令牌 token
审计 audit
规范 standard|convention|guideline
最佳实践 best practices
架构 architecture
设计模式 design pattern
系统设计 system design
技术债 technical debt
文档化 documentation
规划 plan|planning
计划 plan
路线图 roadmap
估算 estimate
优先级 priority
迭代 iteration|sprint
敏捷 agile
复盘 retrospective|postmortem
面试 interview
招聘 hiring|recruiting
团队 team
协作 collaboration
沟通 communication
管理 management|manage
技能 skill
插件市场 marketplace
浏览器扩展 browser extension
命令行工具 cli tool
开源 open source
许可证 license
游戏 game
引擎 engine
关卡 level
角色 character|role
地图 map
定时 schedule|scheduled
定时任务 cron job|scheduled task
调度 scheduling|orchestration
编排 orchestration
数据管道 data pipeline
管道 pipeline
数据仓库 data warehouse
数据湖 data lake
湖仓 lakehouse
流处理 stream processing
批处理 batch processing
实时 real-time
离线 offline
接入 integrate|integration
集成 integration|integrate
对接 integrate
调用 call|invoke
请求 request
响应 response
状态码 status code
跨域 cors
前后端 frontend backend
类型检查 type checking
静态分析 static analysis
格式化 format|formatter
代码风格 code style|lint
检查 check|lint
校验 validate|validation
验证 verify|validation
规则 rules
`;

/** Simplified Chinese word → English alternatives (each a word or short phrase), best first. */
export const GLOSSARY: ReadonlyMap<string, readonly string[]> = new Map(
  LINES.trim()
    .split('\n')
    .map((line) => {
      const space = line.indexOf(' ');
      return [line.slice(0, space), line.slice(space + 1).split('|').map((s) => s.trim()).filter(Boolean)] as const;
    }),
);

/** Requests that ask in general what something is or how it works (src/core/route/generalQuestion.ts). */
import { strict as assert } from 'node:assert';
import { generalQuestion, offersExplanations } from '../../src/core/route/generalQuestion';

describe('general questions', () => {
  it('reads a question about how something works or what it is, in general, as one', () => {
    for (const q of [
      'Explain how Git rebase works compared to merge and when each strategy is appropriate.',
      'Explain how @Transactional works in Spring',
      'Explain the difference between TCP and UDP protocols and when to use each.',
      'What is the difference between a process and a thread?',
      'How does garbage collection work in the JVM?',
      'Could you explain what a monad is?',
      '请解释一下 TCP 和 UDP 的区别',
      '什么是依赖注入？',
      'Spring에서 생성자 주입이 어떻게 동작하는지 설명해줘',
    ]) assert.ok(generalQuestion(q), q);
  });

  it('does not read a question about the user\'s own material, a task, or a "why" as one', () => {
    for (const q of [
      // The authors' routing tests of a git library: questions about the user's repository.
      'Explain what this tag object peels to.',
      'Explain the index stages and fix this rename/delete conflict.',
      'Why does fetch use one URL but push use another?',
      'Why is HEAD detached and what state is this repo in?',
      // How to do a task, or a task beside the question.
      'Explain how to write a Dockerfile for a Node service',
      'How do I set up cargo-fuzz for my crate?',
      'What is the best way to migrate from Jest to Vitest?',
      'Explain the pipeline and then write a GitHub Actions workflow for it',
      'Describe our deployment topology',
      'What is wrong with my query plan?',
      '解释一下这段代码',
      'Clean a dirty CSV export: fix the encoding and drop duplicate rows',
      // The live state of something the user has, asked as a question.
      'What are the open PRs assigned to me?',
      'What is the status of the staging deploy?',
      'What are the failing checks on the release branch',
    ]) assert.ok(!generalQuestion(q), q);
  });

  it('leaves a question to a skill that offers explanations, not to one that only says it does not', () => {
    assert.ok(offersExplanations('git-concepts', 'Explains Git concepts - objects, refs, rebase and merge - with diagrams.'));
    assert.ok(offersExplanations('spring-faq', 'Answers questions about Spring Boot configuration.'));
    assert.ok(offersExplanations('rust-tutor', '讲解 Rust 的所有权概念'));
    assert.ok(!offersExplanations('spring-engineering-review', 'Review a Spring repository against best practices. Do not use it to implement changes or answer ordinary Spring questions.'));
    assert.ok(!offersExplanations('git-history-surgeon', 'Rewrite git history: interactive rebase, squash and fixup commits.'));
  });
});

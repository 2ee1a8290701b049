<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>Writing the summary…</source>
        <translation>正在生成总结…</translation>
    </message>
    <message>
        <source>Saved the summary as %1</source>
        <translation>总结已保存为 %1</translation>
    </message>
    <message>
        <source>Open it</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>The summary could not be written: %1</source>
        <translation>总结没能保存：%1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>under 1 s</source>
        <translation>不到 1 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>about %1 at most</source>
        <translation>最多约 %1</translation>
    </message>
    <message>
        <source>The price of %1 is not known, so the highest price is used: the real cost is at most this.</source>
        <translation>不知道 %1 的价格，所以按最高价格计算：实际费用最多就是这个数。</translation>
    </message>
    <message>
        <source>this model</source>
        <translation>这个模型</translation>
    </message>
    <message>
        <source>no AI used, so no usage and no cost</source>
        <translation>没有用到 AI，不产生用量和费用</translation>
    </message>
    <message>
        <source>%1 tokens · %2</source>
        <translation>用量 %1 词元 · 费用 %2</translation>
    </message>
    <message>
        <source>Working on: %1</source>
        <translation>正在处理
%1</translation>
    </message>
    <message>
        <source>the service is busy</source>
        <translation>服务繁忙</translation>
    </message>
    <message>
        <source>the connection dropped</source>
        <translation>连接中断了</translation>
    </message>
    <message>
        <source>the service asked to wait</source>
        <translation>服务要求稍等</translation>
    </message>
    <message>
        <source>Waiting %1 s: %2</source>
        <translation>等待 %1 秒：%2</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Every task on the list is checked. The rounds below show which files were written. Add more tasks, or export a summary to share.</source>
        <translation>清单上的任务都已完成。下方每一轮都列出了写过哪些文件。你可以再添加任务，或导出一份总结发给别人。</translation>
    </message>
    <message>
        <source>Shown as a sample, not done</source>
        <translation>只是示例，并未完成</translation>
    </message>
    <message>
        <source>The Demo engine showed 1 task as a sample and did not tick it: it only wrote a sample note for it under demo-output/.</source>
        <translation>演示引擎把 1 项任务做成了示例，没有勾选它：它只在 demo-output/ 里为它写了一份示例笔记。</translation>
    </message>
    <message>
        <source>The Demo engine showed %1 tasks as a sample and ticked none of them: for those it only wrote sample notes under demo-output/.</source>
        <translation>演示引擎把 %1 项任务做成了示例，一项也没有勾选：这些任务它只在 demo-output/ 里写了示例笔记。</translation>
    </message>
    <message>
        <source>Choose an AI engine to do the work on your own tasks.</source>
        <translation>要真正完成你自己的任务，请选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>The Demo engine wrote sample notes in the demo-output folder and ticked no task: your tasks and files are as you left them. Choose an AI engine to get the work done.</source>
        <translation>演示引擎只在 demo-output 文件夹里写了示例笔记，没有勾选任何任务：你的任务和文件都保持原样。要真正完成这些工作，请选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>Needs your decision</source>
        <translation>需要你来决定</translation>
    </message>
    <message>
        <source>Answer the question to let the work carry on.</source>
        <translation>回答这个问题，工作就能继续。</translation>
    </message>
    <message>
        <source>Stopped: “%1” used up its web lookups</source>
        <translation>已停止：“%1”用完了上网查询次数</translation>
    </message>
    <message>
        <source>Stopped: a task used up its web lookups</source>
        <translation>已停止：有个任务用完了上网查询次数</translation>
    </message>
    <message>
        <source>The task reached its limit of web lookups for this run. Raise “Web lookups per task” in Settings, then choose what happens next.</source>
        <translation>这个任务在本次运行中的上网查询次数已经用完。可以在“设置”里调高“每个任务的上网查询次数”，再选择接下来怎么办。</translation>
    </message>
    <message>
        <source>Stopped: no progress on “%1”</source>
        <translation>已停止：“%1”没有进展</translation>
    </message>
    <message>
        <source>Stopped: no progress</source>
        <translation>已停止：没有进展</translation>
    </message>
    <message>
        <source>The AI kept trying without getting anywhere. Choose what happens next.</source>
        <translation>AI 反复尝试，但一直没有进展。请决定接下来怎么做。</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>You stopped the run. Nothing was left half-written. Press Continue to carry on.</source>
        <translation>你停止了这次运行，没有留下写了一半的文件。按“继续”即可接着做。</translation>
    </message>
    <message>
        <source>Stopped at the round limit</source>
        <translation>已达到轮数上限，已停止</translation>
    </message>
    <message>
        <source>The run used all of its rounds. Press Continue to give it more.</source>
        <translation>这次运行的轮数已经用完。按“继续”再给它一些轮数。</translation>
    </message>
    <message>
        <source>Stopped at the spending limit</source>
        <translation>已达到花费上限，已停止</translation>
    </message>
    <message>
        <source>The run reached the budget you set.</source>
        <translation>这次运行已经花到你设定的预算。</translation>
    </message>
    <message>
        <source>Already running elsewhere</source>
        <translation>这个文件夹正在别处运行</translation>
    </message>
    <message>
        <source>Another run is working in this folder (another window or the terminal). Wait for it to finish, then press Run.</source>
        <translation>另一个运行正在处理这个文件夹（在另一个窗口或终端里）。等它结束后，再按“运行”。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Open a folder first</source>
        <translation>请先打开一个文件夹</translation>
    </message>
    <message>
        <source>Create the task list first</source>
        <translation>请先新建任务清单</translation>
    </message>
    <message>
        <source>Start on the first unchecked task (Ctrl+R)</source>
        <translation>从第一个未勾选的任务开始（Ctrl+R）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop after the current step; nothing is left half-written (Ctrl+.)</source>
        <translation>当前这一步结束后停止，不会留下写了一半的文件（Ctrl+.）</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>当前这一步结束后停止…</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Carry on from where the run stopped (Ctrl+R)</source>
        <translation>从上次停下的地方接着做（Ctrl+R）</translation>
    </message>
    <message>
        <source>Answer the question…</source>
        <translation>回答问题…</translation>
    </message>
    <message>
        <source>Answer the question</source>
        <translation>回答问题</translation>
    </message>
    <message>
        <source>Open the question and choose your answer (Ctrl+D)</source>
        <translation>打开问题并选择你的回答（Ctrl+D）</translation>
    </message>
    <message>
        <source>Review the change…</source>
        <translation>查看修改…</translation>
    </message>
    <message>
        <source>Review the change</source>
        <translation>查看修改</translation>
    </message>
    <message>
        <source>See the change the run asks to make, and allow it or not</source>
        <translation>查看运行想做的修改，再决定是否允许</translation>
    </message>
    <message>
        <source>Export summary…</source>
        <translation>导出总结…</translation>
    </message>
    <message>
        <source>Export summary</source>
        <translation>导出总结</translation>
    </message>
    <message>
        <source>Save a PDF, document or web page that tells what the last run did, to read or share (Ctrl+E).</source>
        <translation>把上次运行做了什么保存成 PDF、文档或网页，方便阅读或分享（Ctrl+E）。</translation>
    </message>
    <message>
        <source>Add a task</source>
        <translation>添加任务</translation>
    </message>
    <message>
        <source>Write a new task at the end of the list (Ctrl+N)</source>
        <translation>在任务清单末尾写一项新任务（Ctrl+N）</translation>
    </message>
    <message>
        <source>Choose an AI engine…</source>
        <translation>选择 AI 引擎…</translation>
    </message>
    <message>
        <source>Choose an AI engine</source>
        <translation>选择 AI 引擎</translation>
    </message>
    <message>
        <source>The Demo engine only shows samples on your own tasks; an AI engine does the work</source>
        <translation>在你自己的任务上，演示引擎只做示例；真正的工作由 AI 引擎完成</translation>
    </message>
    <message>
        <source>Stopped because of a problem</source>
        <translation>出了问题，已停止</translation>
    </message>
    <message>
        <source>See the details below. Your files are safe.</source>
        <translation>详情见下方。你的文件都安然无恙。</translation>
    </message>
    <message>
        <source>The Demo engine uses no AI: on your own tasks it only shows how a run looks and writes sample notes in a demo-output folder, ticking none of them.</source>
        <translation>演示引擎不使用 AI：在你自己的任务上，它只演示一次运行的样子，并在 demo-output 文件夹里写示例笔记，一项也不勾选。</translation>
    </message>
    <message>
        <source>To get your own tasks done, choose an AI engine.</source>
        <translation>要真正完成你自己的任务，请选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>The Demo engine uses no AI: on your tasks it only shows how a run looks and writes sample notes in a demo-output folder, ticking nothing and changing nothing of yours; to get the work done, choose an AI engine.</source>
        <translation>演示引擎不使用 AI：在你的任务上，它只演示一次运行的样子，并在 demo-output 文件夹里写示例笔记，不勾选任务，也不改动你的任何文件；要真正完成工作，请选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>It did one task of its built-in example for real and ticked it: %1.</source>
        <translation>它按自带的示例真正做完并勾选了一项任务：%1。</translation>
    </message>
    <message>
        <source>It did %2 tasks of its built-in example for real and ticked them: %1.</source>
        <translation>它按自带的示例真正做完并勾选了 %2 项任务：%1。</translation>
    </message>
    <message>
        <source>One task is of its built-in example, which it does for real and ticks: %1.</source>
        <translation>有一项任务属于它自带的示例，它会真正做完并勾选：%1。</translation>
    </message>
    <message>
        <source>%2 tasks are of its built-in example, which it does for real and ticks: %1.</source>
        <translation>有 %2 项任务属于它自带的示例，它会真正做完并勾选：%1。</translation>
    </message>
    <message>
        <source>Looking at the files in %1</source>
        <translation>正在查看 %1 里的文件</translation>
    </message>
    <message>
        <source>Looking at the files in the folder</source>
        <translation>正在查看文件夹里的文件</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>正在阅读 %1</translation>
    </message>
    <message>
        <source>Writing %1</source>
        <translation>正在写 %1</translation>
    </message>
    <message>
        <source>Editing %1</source>
        <translation>正在修改 %1</translation>
    </message>
    <message>
        <source>Deleting %1</source>
        <translation>正在删除 %1</translation>
    </message>
    <message>
        <source>Changing cells in %1</source>
        <translation>正在修改 %1 中的单元格</translation>
    </message>
    <message>
        <source>Searching the files for “%1”</source>
        <translation>正在文件里查找“%1”</translation>
    </message>
    <message>
        <source>Marking the task as done</source>
        <translation>正在把任务标记为完成</translation>
    </message>
    <message>
        <source>Writing a question for you</source>
        <translation>正在给你写一个问题</translation>
    </message>
    <message>
        <source>Giving up on this task for now</source>
        <translation>暂时放弃这个任务</translation>
    </message>
    <message>
        <source>Using %1</source>
        <translation>正在使用 %1</translation>
    </message>
    <message>
        <source>%1 is open in another program; close it there and the AI will try again next round.</source>
        <translation>%1 正在另一个程序里打开着；请在那里把它关掉，AI 会在下一轮再试。</translation>
    </message>
    <message>
        <source>The harness reminded the AI to use its tools.</source>
        <translation>系统提醒 AI 动手使用它的工具。</translation>
    </message>
    <message>
        <source>The harness told the AI its last actions had no effect.</source>
        <translation>系统告诉 AI：它刚才的操作没有起作用。</translation>
    </message>
    <message>
        <source>The harness told the AI it is running out of steps.</source>
        <translation>系统告诉 AI：这一轮的步数快用完了。</translation>
    </message>
    <message>
        <source>The harness gave the AI a final warning for this round.</source>
        <translation>系统向 AI 发出了这一轮的最后提醒。</translation>
    </message>
    <message>
        <source>The harness sent the AI a note.</source>
        <translation>系统给 AI 发了一条提示。</translation>
    </message>
    <message>
        <source>Reached this task&apos;s limit of 1 web lookup</source>
        <translation>已达到这个任务的上网查询上限：1 次</translation>
    </message>
    <message>
        <source>Reached this task&apos;s limit of %1 web lookups</source>
        <translation>已达到这个任务的上网查询上限：%1 次</translation>
    </message>
    <message>
        <source>Asked you a question</source>
        <translation>向你提了一个问题</translation>
    </message>
    <message>
        <source>Gave up</source>
        <translation>放弃了</translation>
    </message>
    <message>
        <source>Ran out of steps</source>
        <translation>步数用完了</translation>
    </message>
    <message>
        <source>Stopped going round in circles</source>
        <translation>一直在原地打转，已停下</translation>
    </message>
    <message>
        <source>Ran out of time</source>
        <translation>时间用完了</translation>
    </message>
    <message>
        <source>Engine problem</source>
        <translation>AI 引擎出了问题</translation>
    </message>
    <message>
        <source>Stopped by you</source>
        <translation>已由你停止</translation>
    </message>
    <message>
        <source>Cut off when the app closed</source>
        <translation>应用关闭时被中断</translation>
    </message>
    <message>
        <source>It finished %n task(s): %1.</source>
        <translation>它完成了 %n 个任务：%1。</translation>
    </message>
    <message>
        <source>It changed %n file(s): %1.</source>
        <translation>它改动了 %n 个文件：%1。</translation>
    </message>
    <message>
        <source>It had not finished anything yet.</source>
        <translation>它还没有完成任何事。</translation>
    </message>
    <message>
        <source>Press Continue to carry on from there.</source>
        <translation>按“继续”从那里接着做。</translation>
    </message>
    <message>
        <source>No progress on “%1”: what now?</source>
        <translation>“%1”没有进展：接下来怎么办？</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>再试一次</translation>
    </message>
    <message>
        <source>Skip this task (check it yourself)</source>
        <translation>跳过这个任务（你自己把它勾上）</translation>
    </message>
    <message>
        <source>Rewrite the task</source>
        <translation>改写这个任务</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> 等另外 %1 个</translation>
    </message>
    <message>
        <source>Put back as they were before round %1: %2.</source>
        <translation>已恢复成第 %1 轮之前的样子：%2。</translation>
    </message>
    <message>
        <source>Removed, because round %1 had created them: %2.</source>
        <translation>已删除第 %1 轮新建的文件：%2。</translation>
    </message>
    <message>
        <source>%1 was changed after the round, so your version stays and the version from before the round is saved beside it as %2.</source>
        <translation>%1 在这一轮之后又被改过，所以保留你的版本；这一轮之前的版本另存在旁边，名为 %2。</translation>
    </message>
    <message>
        <source>%1 was changed again by round %3, so the version round %3 left stays and the version from before round %2 is saved beside it as %4.</source>
        <translation>%1 之后又被第 %3 轮改过，所以保留第 %3 轮留下的版本；第 %2 轮之前的版本另存在旁边，名为 %4。</translation>
    </message>
    <message>
        <source>%1 was changed again by a later run, so the version it left stays and the version from before round %2 is saved beside it as %3.</source>
        <translation>%1 之后又被后来的一次运行改过，所以保留那次运行留下的版本；第 %2 轮之前的版本另存在旁边，名为 %3。</translation>
    </message>
    <message>
        <source>%1 was created by the round and changed after it, so it stays as you left it.</source>
        <translation>%1 是这一轮新建的，之后又被改过，所以保持你留下的样子。</translation>
    </message>
    <message>
        <source>Already as before the round: %1.</source>
        <translation>本来就和这一轮之前一样：%1。</translation>
    </message>
    <message>
        <source>Could not be put back: %1.</source>
        <translation>没能恢复：%1。</translation>
    </message>
    <message>
        <source>Round %1 had nothing to undo.</source>
        <translation>第 %1 轮没有需要撤销的内容。</translation>
    </message>
    <message>
        <source>The task “%1” stays ticked in the checklist; untick it if you want it done again.</source>
        <translation>任务“%1”在清单里仍然是勾选的；如果想让它重做，请取消勾选。</translation>
    </message>
    <message>
        <source>put back %1 as before the round</source>
        <translation>把 %1 恢复成这一轮之前的样子</translation>
    </message>
    <message>
        <source>deleted %1, which the round had created</source>
        <translation>删除了这一轮新建的 %1</translation>
    </message>
    <message>
        <source>kept both versions of %1, because you had changed it</source>
        <translation>保留了 %1 的两个版本，因为你改过它</translation>
    </message>
    <message>
        <source>kept both versions of %1, because a later round had changed it</source>
        <translation>保留了 %1 的两个版本，因为之后的一轮改过它</translation>
    </message>
    <message>
        <source>Undo of round %1 put nothing back.</source>
        <translation>撤销第 %1 轮：没有恢复任何文件。</translation>
    </message>
    <message>
        <source>Undid round %1: %2.</source>
        <translation>已撤销第 %1 轮：%2。</translation>
    </message>
    <message>
        <source>You undid this round: %1.</source>
        <translation>你撤销了这一轮：%1。</translation>
    </message>
    <message>
        <source>Round %1 of the run started %2: “%3”.</source>
        <translation>第 %1 轮（%2 开始的运行）：“%3”。</translation>
    </message>
    <message>
        <source>Round %1: “%3”.</source>
        <translation>第 %1 轮：“%3”。</translation>
    </message>
    <message>
        <source>Puts back as they were before the round: %1.</source>
        <translation>恢复成这一轮之前的样子：%1。</translation>
    </message>
    <message>
        <source>Deletes, because the round created them: %1.</source>
        <translation>将删除这一轮新建的文件：%1。</translation>
    </message>
    <message>
        <source>A file you changed yourself since is kept, with the earlier version saved beside it.</source>
        <translation>之后你自己改过的文件会保留，之前的版本另存在它旁边。</translation>
    </message>
    <message>
        <source>The task stays ticked; untick it if you want it done again.</source>
        <translation>任务仍保持勾选；如果想让它重做，请取消勾选。</translation>
    </message>
    <message>
        <source>the Demo engine</source>
        <translation>演示引擎</translation>
    </message>
    <message>
        <source>the local server</source>
        <translation>本机服务器</translation>
    </message>
    <message>
        <source>the AI engine</source>
        <translation>AI 引擎</translation>
    </message>
    <message>
        <source>%1 needs your API key before it can run: paste it in Engine settings.</source>
        <translation>%1 需要你的 API 密钥才能运行：请在 AI 引擎设置里粘贴。</translation>
    </message>
    <message>
        <source>%1 needs your API key, and this computer has no keychain: keep it for this session in Engine settings.</source>
        <translation>%1 需要你的 API 密钥，而这台电脑没有可用的钥匙串：可以在 AI 引擎设置里只为本次使用保留它。</translation>
    </message>
    <message>
        <source>%1 did not accept the saved API key: paste a new one in Engine settings.</source>
        <translation>%1 没有接受已保存的 API 密钥：请在 AI 引擎设置里粘贴一个新的。</translation>
    </message>
    <message>
        <source>%1 does not allow the saved API key to do this work: paste another key in Engine settings.</source>
        <translation>%1 不允许已保存的 API 密钥做这项工作：请在 AI 引擎设置里换一个密钥。</translation>
    </message>
    <message>
        <source>Your %1 account is out of credit or at its spending limit: add credit at %2.</source>
        <translation>你的 %1 账户余额不足或已达到消费上限：请在 %2 充值。</translation>
    </message>
    <message>
        <source>%1 has no model called “%2” that your key can use: choose another in Engine settings.</source>
        <translation>%1 没有你的密钥能用的“%2”模型：请在 AI 引擎设置里换一个。</translation>
    </message>
    <message>
        <source>%1 could not be reached: check your internet connection.</source>
        <translation>连不上 %1：请检查网络连接。</translation>
    </message>
    <message>
        <source>%1 did not answer within %2 seconds: check your internet connection.</source>
        <translation>%1 在 %2 秒内没有回应：请检查网络连接。</translation>
    </message>
    <message>
        <source>The address set for %1 is not a web address: correct %2.</source>
        <translation>为 %1 设置的地址不是网址：请改正 %2。</translation>
    </message>
    <message>
        <source>%1 is not ready yet: Engine settings can test the connection.</source>
        <translation>%1 还没有就绪：可以在 AI 引擎设置里测试连接。</translation>
    </message>
    <message>
        <source>Nothing is answering at %1: start your local server there (Ollama, LM Studio, llama.cpp&apos;s llama-server or another), or correct the address in Engine settings.</source>
        <translation>%1 没有任何回应：请在那里启动你的本地服务器（Ollama、LM Studio、llama.cpp 的 llama-server 或其他），或在 AI 引擎设置里改正地址。</translation>
    </message>
    <message>
        <source>The local server at %1 did not answer in time: check that it has finished loading.</source>
        <translation>%1 的本机服务器没有及时回应：请确认它已经加载完毕。</translation>
    </message>
    <message>
        <source>The local server at %1 has no models yet: download one first, for example with “ollama pull qwen3”.</source>
        <translation>%1 的本机服务器还没有模型：请先下载一个，例如用“ollama pull qwen3”。</translation>
    </message>
    <message>
        <source>The local server has no model called “%1”: choose one it has in Engine settings.</source>
        <translation>本机服务器没有“%1”这个模型：请在 AI 引擎设置里选一个它已有的。</translation>
    </message>
    <message>
        <source>The model “%1” cannot use tools, which Harness Desk needs: choose another model in Engine settings.</source>
        <translation>模型“%1”不会使用工具，而 Harness Desk 需要工具：请在 AI 引擎设置里换一个模型。</translation>
    </message>
    <message>
        <source>The model “%1” has too small a context for Harness Desk: give it a larger context size on the server.</source>
        <translation>模型“%1”的上下文对 Harness Desk 来说太小：请在服务器上给它设更大的上下文。</translation>
    </message>
    <message>
        <source>The address set for the local server cannot be used: correct it in Engine settings.</source>
        <translation>为本机服务器设置的地址无法使用：请在 AI 引擎设置里改正。</translation>
    </message>
    <message>
        <source>The local server is not ready yet: Engine settings can test the connection.</source>
        <translation>本机服务器还没有就绪：可以在 AI 引擎设置里测试连接。</translation>
    </message>
    <message>
        <source>Stopped: %1 needs an API key</source>
        <translation>已停止：%1 需要 API 密钥</translation>
    </message>
    <message>
        <source>%1 has no API key yet: paste yours in Engine settings, then press %2.</source>
        <translation>%1 还没有 API 密钥：请在 AI 引擎设置里粘贴你的密钥，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: %1 refused the API key</source>
        <translation>已停止：%1 拒绝了 API 密钥</translation>
    </message>
    <message>
        <source>%1 does not allow this API key to do the work: paste another in Engine settings, then press %2.</source>
        <translation>%1 不允许这个 API 密钥做这项工作：请在 AI 引擎设置里换一个，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the local server refused the request</source>
        <translation>已停止：本机服务器拒绝了请求</translation>
    </message>
    <message>
        <source>The local server asks for a sign-in Harness Desk does not have: check its settings, then press %2.</source>
        <translation>本机服务器要求 Harness Desk 没有的登录信息：请检查它的设置，然后按“%2”。</translation>
    </message>
    <message>
        <source>%1 did not accept the saved API key: paste a new one in Engine settings, then press %2.</source>
        <translation>%1 没有接受已保存的 API 密钥：请在 AI 引擎设置里粘贴一个新的，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the local server ran out of resources</source>
        <translation>已停止：本机服务器资源不足</translation>
    </message>
    <message>
        <source>The local server could not take the work: free some memory or choose a smaller model, then press %2.</source>
        <translation>本机服务器接不下这项工作：请腾出一些内存或换一个更小的模型，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the %1 account is out of credit</source>
        <translation>已停止：%1 账户余额不足</translation>
    </message>
    <message>
        <source>Add credit or raise the spending limit at %3, then press %2.</source>
        <translation>请在 %3 充值或提高消费上限，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the model cannot use tools</source>
        <translation>已停止：模型不会使用工具</translation>
    </message>
    <message>
        <source>The model “%3” cannot use the tools Harness Desk needs: choose another in Engine settings, then press %2.</source>
        <translation>模型“%3”不会使用 Harness Desk 需要的工具：请在 AI 引擎设置里换一个，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the model is not available</source>
        <translation>已停止：模型不可用</translation>
    </message>
    <message>
        <source>%1 has no model called “%3” to use: choose another in Engine settings, then press %2.</source>
        <translation>%1 没有可用的“%3”模型：请在 AI 引擎设置里换一个，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the engine&apos;s address is wrong</source>
        <translation>已停止：AI 引擎的地址不对</translation>
    </message>
    <message>
        <source>The address set for %1 is not a web address: correct it in Engine settings, then press %2.</source>
        <translation>为 %1 设置的地址不是网址：请在 AI 引擎设置里改正，然后按“%2”。</translation>
    </message>
    <message>
        <source>The address set for %1 is not a web address: correct %3, then press %2.</source>
        <translation>为 %1 设置的地址不是网址：请改正 %3，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: the local server is not running</source>
        <translation>已停止：本机服务器没有运行</translation>
    </message>
    <message>
        <source>Nothing answers at the local server&apos;s address: start Ollama or LM Studio, then press %2.</source>
        <translation>本机服务器的地址没有任何回应：请启动 Ollama 或 LM Studio，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: %1 could not be reached</source>
        <translation>已停止：连不上 %1</translation>
    </message>
    <message>
        <source>Check your internet connection, then press %2.</source>
        <translation>请检查网络连接，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: %1 kept failing</source>
        <translation>已停止：%1 一直出错</translation>
    </message>
    <message>
        <source>%1 stayed busy or kept limiting requests for longer than the run may wait: wait a few minutes, then press %2.</source>
        <translation>%1 一直繁忙或一直在限制请求频率，超过了这次运行能等的时间：请等几分钟，然后按“%2”。</translation>
    </message>
    <message>
        <source>Stopped: %1 refused the request</source>
        <translation>已停止：%1 拒绝了请求</translation>
    </message>
    <message>
        <source>%1 refused the work as it was sent: change the task or the model, then press %2.</source>
        <translation>%1 拒绝了这样发送的工作：请修改任务或换一个模型，然后按“%2”。</translation>
    </message>
    <message>
        <source>The AI engine did not answer in this round; the run&apos;s state says why.</source>
        <translation>这一轮里 AI 引擎没有回应；运行状态里写明了原因。</translation>
    </message>
    <message>
        <source>%1 is no longer in the folder, so it cannot be opened.</source>
        <translation>%1 已经不在文件夹里了，所以无法打开。</translation>
    </message>
    <message>
        <source>No program opened %1: your computer has no program set for this kind of file. Use Show in folder and open it from there.</source>
        <translation>没有程序打开 %1：你的电脑没有为这类文件设定程序。请用“在文件夹中显示”，再从那里打开它。</translation>
    </message>
    <message>
        <source>%1 and its folder are no longer there, so they cannot be shown.</source>
        <translation>%1 和它所在的文件夹都已经不在了，所以无法显示。</translation>
    </message>
    <message>
        <source>%1 could not be opened: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>The folder of %1 could not be shown: your computer has no file manager set to show it.</source>
        <translation>无法显示 %1 所在的文件夹：你的电脑没有设定用来显示它的文件管理器。</translation>
    </message>
    <message>
        <source>The folder of %1 could not be shown: %2</source>
        <translation>无法显示 %1 所在的文件夹：%2</translation>
    </message>
    <message>
        <source>The summary was saved, but no program opened it: it is no longer at %1.</source>
        <translation>总结已保存，但没有程序打开它：它已经不在 %1 了。</translation>
    </message>
    <message>
        <source>The summary was saved, but no program opened it: your computer has no program set for this kind of file. It is at %1.</source>
        <translation>总结已保存，但没有程序打开它：你的电脑没有为这类文件设定程序。文件在 %1。</translation>
    </message>
    <message>
        <source>The summary was saved, but no program opened it: %1. It is at %2.</source>
        <translation>总结已保存，但没有程序打开它：%1。文件在 %2。</translation>
    </message>
    <message>
        <source>every day at %1</source>
        <translation>每天 %1</translation>
    </message>
    <message>
        <source>every weekday at %1</source>
        <translation>每个工作日 %1</translation>
    </message>
    <message>
        <source>Searches</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>网页</translation>
    </message>
    <message>
        <source>Sentences that cite them</source>
        <translation>引用这些来源的句子</translation>
    </message>
    <message>
        <source>retrieved %1</source>
        <translation>获取于 %1</translation>
    </message>
    <message>
        <source>The page says: %1</source>
        <translation>网页原文：%1</translation>
    </message>
    <message>
        <source>Looked up: %1, %2</source>
        <translation>查了资料：%1，%2</translation>
    </message>
    <message>
        <source>%n search</source>
        <translation>搜索 %n 次</translation>
    </message>
    <message>
        <source>%n searches</source>
        <translation>搜索 %n 次</translation>
    </message>
    <message>
        <source>%n page read</source>
        <translation>读了 %n 个网页</translation>
    </message>
    <message>
        <source>%n pages read</source>
        <translation>读了 %n 个网页</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>every %1 at %2</source>
        <translation>每%1 %2</translation>
    </message>
    <message>
        <source>on day %1 of every month at %2</source>
        <translation>每月 %1 日 %2</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>The schedule is paused (%1). Nothing runs until you resume it.</source>
        <translation>定时已暂停（%1）。恢复之前不会运行。</translation>
    </message>
    <message>
        <source>Runs on a schedule with %4, %1, with at most %2 a run. Next run: %3.</source>
        <translation>定时运行（引擎：%4）：%1，每次最多花费 %2。下次运行：%3。</translation>
    </message>
    <message>
        <source>%1: finished, %2 of %3 tasks done, $%4 spent.</source>
        <translation>%1：已完成，%3 项任务完成了 %2 项，花费 $%4。</translation>
    </message>
    <message>
        <source>%1: stopped to wait for your decision: %2</source>
        <translation>%1：已停下，等你决定：%2</translation>
    </message>
    <message>
        <source>see the task list</source>
        <translation>请查看任务列表</translation>
    </message>
    <message>
        <source>%1: did not start, because another run was already working in the folder.</source>
        <translation>%1：没有开始，因为另一次运行正在该文件夹中工作。</translation>
    </message>
    <message>
        <source>%1: did not start, because the schedule has no budget.</source>
        <translation>%1：没有开始，因为该定时没有设置预算。</translation>
    </message>
    <message>
        <source>%1: did not start, because %2&apos;s API key could not be read from the keychain: a scheduled run needs you logged in on this computer, with its keychain unlocked.</source>
        <translation>%1：没有开始，因为无法从钥匙串读取 %2 的 API 密钥：定时运行需要你在这台电脑上保持登录，并且钥匙串已解锁。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the folder was not there (moved or deleted), so its schedule was removed.</source>
        <translation>%1：文件夹已不在原处（被移动或删除），因此它的定时已删除。</translation>
    </message>
    <message>
        <source>%1: did not start, because the folder could not be used for a run as it was. Press Run here to see why.</source>
        <translation>%1：没有开始，因为该文件夹当时的状态无法运行。在这里按“运行”可查看原因。</translation>
    </message>
    <message>
        <source>%1: did not start, because the schedule&apos;s budget could not be used. Set another one with Change….</source>
        <translation>%1：没有开始，因为该定时的预算无法使用。请用“更改…”设置新的预算。</translation>
    </message>
    <message>
        <source>%1: did not start, because the schedule&apos;s engine is not one this app has. Choose another one with Change….</source>
        <translation>%1：没有开始，因为本应用没有该定时所用的引擎。请用“更改…”选择其他引擎。</translation>
    </message>
    <message>
        <source>%1: stopped before it finished. Press Run here to carry on.</source>
        <translation>%1：在完成前停止了。在这里按“运行”可继续。</translation>
    </message>
    <message>
        <source>%1: could not start or finish. Press Run here to see why.</source>
        <translation>%1：未能开始或完成。在这里按“运行”可查看原因。</translation>
    </message>
    <message>
        <source>This computer has no scheduler the app can use. Install cron (on Debian and Ubuntu: sudo apt install cron) or log in to a desktop session, then try again.</source>
        <translation>这台电脑上没有可用的计划任务程序。请安装 cron（Debian 和 Ubuntu 上：sudo apt install cron）或登录桌面会话，然后重试。</translation>
    </message>
    <message>
        <source>the computer&apos;s scheduler (%1) is not installed.</source>
        <translation>电脑的计划任务程序（%1）没有安装。</translation>
    </message>
    <message>
        <source>the computer&apos;s scheduler (%1) did not answer within %2 seconds. Try again in a moment.</source>
        <translation>电脑的计划任务程序（%1）在 %2 秒内没有响应。请稍后重试。</translation>
    </message>
    <message>
        <source>the computer&apos;s scheduler (%1) refused it, saying “%2”.</source>
        <translation>电脑的计划任务程序（%1）没有接受，它的回答是：“%2”。</translation>
    </message>
    <message>
        <source>the app&apos;s settings folder could not be written. Check that the disk has room, then try again.</source>
        <translation>无法写入本应用的设置文件夹。请确认磁盘有空间，然后重试。</translation>
    </message>
    <message>
        <source>something on this computer stopped it. Try again; if it happens again, restart the computer.</source>
        <translation>这台电脑上的某个程序阻止了它。请再试一次；如果还是这样，请重启电脑。</translation>
    </message>
    <message>
        <source>Since you last looked, 1 scheduled run:</source>
        <translation>自你上次查看以来，有 1 次定时运行：</translation>
    </message>
    <message>
        <source>Since you last looked, %1 scheduled runs:</source>
        <translation>自你上次查看以来，有 %1 次定时运行：</translation>
    </message>
    <message>
        <source>Searched for %1</source>
        <translation>搜索了%1</translation>
    </message>
    <message>
        <source>Sites: %1</source>
        <translation>网站：%1</translation>
    </message>
    <message>
        <source>the search failed</source>
        <translation>搜索失败</translation>
    </message>
    <message>
        <source>found nothing</source>
        <translation>什么也没找到</translation>
    </message>
    <message>
        <source>%n result</source>
        <translation>%n 条结果</translation>
    </message>
    <message>
        <source>%n results</source>
        <translation>%n 条结果</translation>
    </message>
    <message>
        <source>could not be read</source>
        <translation>没能读取</translation>
    </message>
    <message>
        <source>read in full</source>
        <translation>读了全文</translation>
    </message>
    <message>
        <source>a search result</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <source>This proposal rests on these sources</source>
        <translation>这项改动依据的是下面这些来源</translation>
    </message>
    <message>
        <source>Looked up before the question was asked</source>
        <translation>提问之前查过的资料</translation>
    </message>
    <message>
        <source>Made up for the demo: the Demo engine looked nothing up, and nothing left this computer. The addresses are examples that belong to no one.</source>
        <translation>为演示编造：演示引擎什么都没有查，也没有任何内容离开这台电脑。这些地址只是示例，不属于任何人。</translation>
    </message>
    <message>
        <source>The AI service looked these pages up, not Harness Desk. A link opens in your web browser.</source>
        <translation>这些网页是 AI 服务查到的，不是 Harness Desk 打开的。点链接会在你的网页浏览器里打开。</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Harness Desk</source>
        <translation>关于 Harness Desk</translation>
    </message>
    <message>
        <source>Put an AI to work on a folder of your own files, and stay in control: every change can be undone.</source>
        <translation>让 AI 处理你自己文件夹里的文件，一切由你掌控：每一处改动都可以撤销。</translation>
    </message>
    <message>
        <source>Your settings: %1</source>
        <translation>你的设置：%1</translation>
    </message>
    <message>
        <source>Demo copies: %1</source>
        <translation>演示副本：%1</translation>
    </message>
    <message>
        <source>API keys: in your system&apos;s keychain (service “harness-desk”), never in a file.</source>
        <translation>API 密钥：保存在系统钥匙串中（服务名“harness-desk”），从不写入文件。</translation>
    </message>
    <message>
        <source>Each folder&apos;s runs, evidence and undo: in its .harness folder.</source>
        <translation>每个文件夹的运行记录、证据和撤销信息：在它的 .harness 文件夹里。</translation>
    </message>
    <message>
        <source>Open the guides</source>
        <translation>打开使用指南</translation>
    </message>
    <message>
        <source>Something went wrong? Open the crash reports folder, copy the details, and paste them into your message to whoever helps you. Keys and secrets are left out.</source>
        <translation>出问题了？打开崩溃报告文件夹，复制详细信息，粘贴到你发给帮你的人的消息里。密钥和机密信息不会包含在内。</translation>
    </message>
    <message>
        <source>Open the crash reports folder</source>
        <translation>打开崩溃报告文件夹</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <source>Copied. Paste it into your message.</source>
        <translation>已复制。请粘贴到你的消息里。</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>May the AI change your file?</source>
        <translation>允许 AI 修改你的文件吗？</translation>
    </message>
    <message>
        <source>May the AI delete your file?</source>
        <translation>允许 AI 删除你的文件吗？</translation>
    </message>
    <message>
        <source>Leave the file as it is; the engine is told and can write a new file instead</source>
        <translation>保持文件原样；引擎会得知此事，可以改为写一个新文件</translation>
    </message>
    <message>
        <source>Make this change and every other change made while working on this task, without asking</source>
        <translation>允许这项修改；处理这个任务期间的其他修改也一并允许，不再询问</translation>
    </message>
    <message>
        <source>Change the proposed text yourself; your version is what gets saved, and the engine is told</source>
        <translation>自己改写提议的内容；保存你的版本，并告诉引擎</translation>
    </message>
    <message>
        <source>May the Demo engine delete your file?</source>
        <translation>允许演示引擎删除你的文件吗？</translation>
    </message>
    <message>
        <source>May the Demo engine change your file?</source>
        <translation>允许演示引擎修改你的文件吗？</translation>
    </message>
    <message>
        <source>The AI wants to delete %1</source>
        <translation>AI 想删除 %1</translation>
    </message>
    <message>
        <source>The AI wants to change %1</source>
        <translation>AI 想修改 %1</translation>
    </message>
    <message>
        <source>Show as text</source>
        <translation>按文字显示</translation>
    </message>
    <message>
        <source>Green lines (+) are what the change would add, red lines (−) what it would remove. Nothing is changed until you allow it; Undo can take it back later.</source>
        <translation>绿色的行（+）是这项修改要添加的内容，红色的行（−）是它要删除的内容。在你允许之前什么都不会改；之后也可以用“撤销”恢复。</translation>
    </message>
    <message>
        <source>This round changes many of your files, so you are asked once for all of them.</source>
        <translation>这一轮要修改你的很多文件，所以一次性征求你的同意。</translation>
    </message>
    <message>
        <source>This file was in your folder before this run, and careful mode is on: you are asked before your own files are changed or deleted.</source>
        <translation>这个文件在本次运行之前就在你的文件夹里，而且谨慎模式已开启：修改或删除你自己的文件之前会先问你。</translation>
    </message>
    <message>
        <source>This file is not plain text, so only its size can be shown: before %1, after %2.</source>
        <translation>这个文件不是纯文本，只能显示它的大小：修改前 %1，修改后 %2。</translation>
    </message>
    <message>
        <source>Sizes: before %1, after %2.</source>
        <translation>大小：修改前 %1，修改后 %2。</translation>
    </message>
    <message>
        <source>While working on: %1</source>
        <translation>正在处理的任务：%1</translation>
    </message>
    <message>
        <source>Your file before and after the change</source>
        <translation>修改前后的文件</translation>
    </message>
    <message>
        <source>Lines with a minus would be removed, lines with a plus added</source>
        <translation>带减号的行将被删除，带加号的行将被添加</translation>
    </message>
    <message>
        <source>Your version of the file</source>
        <translation>你改过的文件内容</translation>
    </message>
    <message>
        <source>The Demo engine wants to delete %1</source>
        <translation>演示引擎想删除 %1</translation>
    </message>
    <message>
        <source>The Demo engine wants to change %1</source>
        <translation>演示引擎想修改 %1</translation>
    </message>
    <message>
        <source>Show as the AI reads it</source>
        <translation>按 AI 读到的样子显示</translation>
    </message>
    <message>
        <source>Switch between the document as it looks and its text as the AI reads it</source>
        <translation>在文档的原样和 AI 读到的文字之间切换</translation>
    </message>
    <message>
        <source>Switch between the document as it looks and its text</source>
        <translation>在文档的原样和它的文字之间切换</translation>
    </message>
    <message>
        <source>What you write here is what will be saved</source>
        <translation>这里写的内容就是将要保存的内容</translation>
    </message>
    <message>
        <source>&amp;Allow</source>
        <translation>允许(&amp;A)</translation>
    </message>
    <message>
        <source>Make this change</source>
        <translation>进行这项修改</translation>
    </message>
    <message>
        <source>&amp;Don&apos;t allow</source>
        <translation>不允许(&amp;D)</translation>
    </message>
    <message>
        <source>Allow all for this &amp;task</source>
        <translation>此任务全部允许(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Edit before allowing…</source>
        <translation>先编辑再允许(&amp;E)…</translation>
    </message>
    <message>
        <source>The text is the same (only the file&apos;s bytes would change, e.g. line endings).</source>
        <translation>文字内容相同（只有文件的字节会变，例如换行符）。</translation>
    </message>
    <message>
        <source>Show as it looks</source>
        <translation>按原样显示</translation>
    </message>
    <message>
        <source>Reading the two versions…</source>
        <translation>正在读取两个版本…</translation>
    </message>
    <message>
        <source>Nothing is changed until you allow it; Undo can take it back later.</source>
        <translation>在你允许之前不会做任何更改；之后也可以用“撤销”还原。</translation>
    </message>
    <message>
        <source>Edit the text as you want it saved, then press Allow my version.</source>
        <translation>把文字改成你想保存的样子，然后按“允许我的版本”。</translation>
    </message>
    <message>
        <source>&amp;Allow my version</source>
        <translation>允许我的版本(&amp;A)</translation>
    </message>
</context>
<context>
    <name>BoardFile</name>
    <message>
        <source>That task was changed in another program, so your change was not saved. The list now shows %1 as it is.</source>
        <translation>这个任务刚在别的程序里被改过，所以你的修改没有保存。清单现在显示的是 %1 当前的内容。</translation>
    </message>
    <message>
        <source>%1 is read-only, so your change was not saved. Allow changes to it, then try again.</source>
        <translation>%1 是只读的，所以你的修改没有保存。请先允许修改这个文件，再试一次。</translation>
    </message>
    <message>
        <source>%1 is open and locked in another program, so your change was not saved. Close it there, then try again.</source>
        <translation>%1 正被另一个程序打开并锁定，所以你的修改没有保存。请先在那个程序里关闭它，再试一次。</translation>
    </message>
    <message>
        <source>Could not save %1: %2. Your change was not made.</source>
        <translation>无法保存 %1：%2。你的修改没有生效。</translation>
    </message>
    <message>
        <source>Your change to %1 could not be saved.</source>
        <translation>你对 %1 的修改没能保存。</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the disk or folder is read-only</source>
        <translation>磁盘或文件夹是只读的</translation>
    </message>
    <message>
        <source>you may not change files in this folder</source>
        <translation>你没有权限修改这个文件夹里的文件</translation>
    </message>
</context>
<context>
    <name>BoardItemModel</name>
    <message>
        <source>Decided: %1</source>
        <translation>已决定：%1</translation>
    </message>
    <message>
        <source>A decision for you</source>
        <translation>等你来决定</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>已决定</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Not done</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>The run is working on this now</source>
        <translation>运行正在处理这一项</translation>
    </message>
    <message>
        <source>The run is working on this task now. You can change its text when the run stops.</source>
        <translation>运行正在处理这个任务。运行停止后，你就可以修改它的文字。</translation>
    </message>
    <message>
        <source>A decision only you can make. Click it (or press Enter) to decide.</source>
        <translation>这件事只能由你来决定。点一下（或按 Enter）来做决定。</translation>
    </message>
    <message>
        <source>Double-click or press F2 to change the text. Drag, or press Alt+Up and Alt+Down, to move it.</source>
        <translation>双击或按 F2 修改文字。拖动它，或按 Alt+↑ 和 Alt+↓，可以调整顺序。</translation>
    </message>
</context>
<context>
    <name>BoardText</name>
    <message>
        <source>%1 is saved as UTF-16 (Notepad&apos;s “Unicode”), which this app cannot read. Save it as UTF-8 to see its tasks here.</source>
        <translation>%1 是以 UTF-16（记事本里的“Unicode”）保存的，本应用读不了。把它另存为 UTF-8，这里就会显示其中的任务。</translation>
    </message>
    <message>
        <source>Some letters in %1 show as “�”: it is not saved as UTF-8. Save it as UTF-8 to see them.</source>
        <translation>%1 里有些字显示成了“�”：它不是以 UTF-8 保存的。把它另存为 UTF-8，这些字就能正常显示。</translation>
    </message>
</context>
<context>
    <name>BoardView</name>
    <message>
        <source>No tasks yet. Type one below and press Enter, or let the AI propose some for a goal.</source>
        <translation>还没有任务。在下面输入一项并按 Enter，或者说出你的目标，让 AI 为你提出任务。</translation>
    </message>
    <message>
        <source>Add a task…</source>
        <translation>添加任务…</translation>
    </message>
    <message>
        <source>Add a task</source>
        <translation>添加任务</translation>
    </message>
    <message>
        <source>Type what you want done and press Enter. It goes at the end of the list (Ctrl+N).</source>
        <translation>输入你想做的事，按 Enter，它会加到清单末尾（Ctrl+N）。</translation>
    </message>
    <message>
        <source>This folder has no task list yet</source>
        <translation>这个文件夹还没有任务清单</translation>
    </message>
    <message>
        <source>The task list is where you write what you want done, one task a line; the AI works through it from the top. It is saved in this folder as TASKS.md.</source>
        <translation>任务清单用来写下你想完成的事，每行一个任务；AI 从上往下逐个去做。它保存在这个文件夹里，名为 TASKS.md。</translation>
    </message>
    <message>
        <source>Create a task list</source>
        <translation>新建任务清单</translation>
    </message>
    <message>
        <source>Start TASKS.md with two example tasks you can change or delete.</source>
        <translation>新建 TASKS.md，里面有两个示例任务，你可以修改或删除。</translation>
    </message>
    <message>
        <source>Decide…</source>
        <translation>做决定…</translation>
    </message>
    <message>
        <source>Change text</source>
        <translation>修改文字</translation>
    </message>
    <message>
        <source>Mark as done</source>
        <translation>标记为完成</translation>
    </message>
    <message>
        <source>You decide this one (the run asks you)</source>
        <translation>这件事由你来决定（运行会停下来问你）</translation>
    </message>
    <message>
        <source>The AI stops at this task and asks you, instead of doing it itself. In TASKS.md such a task is marked HUMAN.</source>
        <translation>AI 做到这个任务时会停下来问你，而不是自己去做。在 TASKS.md 里，这样的任务标有 HUMAN。</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete this task (you can undo it)</source>
        <translation>删除这个任务（可以撤销）</translation>
    </message>
    <message>
        <source>Undo delete</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <source>Mark as not done</source>
        <translation>标记为未完成</translation>
    </message>
    <message>
        <source>The run is working on this task. Stop the run to change or delete it.</source>
        <translation>运行正在处理这个任务。要修改或删除它，请先停止运行。</translation>
    </message>
    <message>
        <source>TASKS.md has a list, but none of its lines is a task yet: a task line starts with “- [ ]”. Type a task below and press Enter, or let the AI propose some.</source>
        <translation>TASKS.md 里有一份清单，但其中还没有一行是任务：任务行要以“- [ ]”开头。在下面输入一项任务并按 Enter，或者让 AI 为你提出任务。</translation>
    </message>
</context>
<context>
    <name>BudgetLine</name>
    <message>
        <source>Budget per run, in US dollars</source>
        <translation>每次运行的预算（美元）</translation>
    </message>
</context>
<context>
    <name>CarefulFlow</name>
    <message>
        <source>&amp;Careful mode</source>
        <translation>谨慎模式(&amp;C)</translation>
    </message>
    <message>
        <source>Careful mode: the AI asks you before it changes or deletes a file that was already in your folder. New files it makes need no answer. Remembered for this folder.</source>
        <translation>谨慎模式：AI 修改或删除你文件夹里原有的文件之前会先问你。它新建的文件不需要你回答。此设置按文件夹记住。</translation>
    </message>
    <message>
        <source>Careful mode</source>
        <translation>谨慎模式</translation>
    </message>
    <message>
        <source>Protect this file</source>
        <translation>保护这个文件</translation>
    </message>
    <message>
        <source>Never let the AI change this file (Settings lists what is protected)</source>
        <translation>永远不让 AI 修改这个文件（“设置”里列出了受保护的内容）</translation>
    </message>
    <message>
        <source>%1 is now protected: no run may ever change it.</source>
        <translation>%1 现已受保护：任何运行都不能修改它。</translation>
    </message>
    <message>
        <source>The run asks before deleting %1.</source>
        <translation>运行在删除 %1 之前征求你的同意。</translation>
    </message>
    <message>
        <source>The run asks before changing %1.</source>
        <translation>运行在修改 %1 之前征求你的同意。</translation>
    </message>
    <message>
        <source>A change to %1 waits for your approval. The run waits too.</source>
        <translation>对 %1 的修改正在等待你的同意，运行也在等待。</translation>
    </message>
    <message>
        <source>The folder&apos;s settings could not be saved: %1</source>
        <translation>无法保存此文件夹的设置：%1</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>等待你的同意</translation>
    </message>
    <message>
        <source>Your approval is needed</source>
        <translation>需要你的同意</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>查看…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>正在工作…</translation>
    </message>
    <message>
        <source>Your answer could not be saved: %1</source>
        <translation>你的回答未能保存：%1</translation>
    </message>
</context>
<context>
    <name>CarefulWording</name>
    <message>
        <source>allowed</source>
        <translation>已允许</translation>
    </message>
    <message>
        <source>allowed for the whole task</source>
        <translation>本任务内已全部允许</translation>
    </message>
    <message>
        <source>allowed with your edit</source>
        <translation>已按你的修改允许</translation>
    </message>
    <message>
        <source>not allowed</source>
        <translation>未允许</translation>
    </message>
    <message>
        <source>not made: you had not seen the change</source>
        <translation>未执行：你还没有看过这项修改</translation>
    </message>
    <message>
        <source>refused: protected</source>
        <translation>已拒绝：受保护</translation>
    </message>
    <message>
        <source>waiting for your answer</source>
        <translation>等待你的回答</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>还有 %1 项</translation>
    </message>
    <message>
        <source>Careful mode: %1</source>
        <translation>谨慎模式：%1</translation>
    </message>
    <message>
        <source>Careful mode: may your file %1 be deleted?</source>
        <translation>谨慎模式：允许删除你的文件 %1 吗？</translation>
    </message>
    <message>
        <source>Careful mode: may your file %1 be changed?</source>
        <translation>谨慎模式：允许修改你的文件 %1 吗？</translation>
    </message>
    <message>
        <source>The AI is changing more than %1 of your files in one round: may it delete your file %2?</source>
        <translation>AI 正在一轮中修改你的 %1 个以上文件：允许它删除你的文件 %2 吗？</translation>
    </message>
    <message>
        <source>The AI is changing more than %1 of your files in one round: may it change your file %2?</source>
        <translation>AI 正在一轮中修改你的 %1 个以上文件：允许它修改你的文件 %2 吗？</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Don&apos;t allow</source>
        <translation>不允许</translation>
    </message>
</context>
<context>
    <name>DecisionDialog</name>
    <message>
        <source>Your decision is needed</source>
        <translation>需要你来决定</translation>
    </message>
    <message>
        <source>The AI is stuck and needs you to choose:</source>
        <translation>AI 卡住了，需要你来选：</translation>
    </message>
    <message>
        <source>The run stopped to ask you:</source>
        <translation>需要你来决定：</translation>
    </message>
    <message>
        <source>Your decision:</source>
        <translation>需要你来决定：</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1  (recommended)</source>
        <translation>%1（推荐）</translation>
    </message>
    <message>
        <source>Another answer…</source>
        <translation>其他答案…</translation>
    </message>
    <message>
        <source>Write your own answer</source>
        <translation>自己写一个答案</translation>
    </message>
    <message>
        <source>Your own answer</source>
        <translation>你自己的答案</translation>
    </message>
    <message>
        <source>Use this answer</source>
        <translation>就用这个答案</translation>
    </message>
    <message>
        <source>Write your answer</source>
        <translation>写下你的回答</translation>
    </message>
    <message>
        <source>Why it is recommended: %1</source>
        <translation>推荐它的理由：%1</translation>
    </message>
    <message>
        <source>What this is based on:</source>
        <translation>这个问题的依据：</translation>
    </message>
    <message>
        <source>Decide later</source>
        <translation>稍后再决定</translation>
    </message>
    <message>
        <source>Close this and leave the question open. The run waits for your answer.</source>
        <translation>先关掉，问题保留。运行会一直等你的答案。</translation>
    </message>
    <message>
        <source>No progress was made on “%1”. What now?</source>
        <translation>“%1”没有任何进展。接下来怎么办？</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Show this file</source>
        <translation>查看这个文件</translation>
    </message>
    <message>
        <source>Write an answer first, or choose one of the options.</source>
        <translation>请先写一个答案，或者选一个选项。</translation>
    </message>
    <message>
        <source>Saved your answer: %1</source>
        <translation>已保存你的答案：%1</translation>
    </message>
    <message>
        <source>The answer could not be saved: %1</source>
        <translation>答案没能保存：%1</translation>
    </message>
    <message>
        <source>Tick the task yourself in the list when it is done (or now, to skip it), then press Continue.</source>
        <translation>任务完成后，请在清单里亲自把它勾上（现在勾上就是跳过它），然后按“继续”。</translation>
    </message>
    <message>
        <source>Change the task&apos;s words in the list on the left so the AI understands it better, then press Continue.</source>
        <translation>在左边的清单里改一改任务的说法，让 AI 更容易理解，然后按“继续”。</translation>
    </message>
    <message>
        <source>The AI can carry on from here.</source>
        <translation>AI 可以从这里接着做了。</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>DecisionFlow</name>
    <message>
        <source>Answered: %1</source>
        <translation>已回答：%1</translation>
    </message>
    <message>
        <source>Your decision is needed: %1</source>
        <translation>需要你来决定——%1</translation>
    </message>
    <message>
        <source>Press Continue to carry on.</source>
        <translation>按“继续”接着做。</translation>
    </message>
    <message>
        <source>Your decision is needed.</source>
        <translation>需要你做一个决定。</translation>
    </message>
    <message>
        <source>Answer…</source>
        <translation>回答…</translation>
    </message>
    <message>
        <source>Harness Desk needs your decision</source>
        <translation>Harness Desk 需要你来决定</translation>
    </message>
    <message>
        <source>Harness Desk: the run has ended</source>
        <translation>Harness Desk：运行已结束</translation>
    </message>
    <message>
        <source>The run in “%1” has ended: %2.</source>
        <translation>“%1”的运行已结束：%2。</translation>
    </message>
</context>
<context>
    <name>EnginePicker</name>
    <message>
        <source>&amp;Engine</source>
        <translation>AI 引擎(&amp;E)</translation>
    </message>
    <message>
        <source>Which AI model of the engine does the work.</source>
        <translation>选择由哪个模型完成工作。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Demo (offline, no AI)</source>
        <translation>演示（离线，不用 AI）</translation>
    </message>
    <message>
        <source>Claude</source>
        <translation>Claude</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>Local (Ollama, LM Studio)</source>
        <translation>本机（Ollama、LM Studio）</translation>
    </message>
    <message>
        <source>checking</source>
        <translation>检查中</translation>
    </message>
    <message>
        <source>Checking whether it is ready…</source>
        <translation>正在检查是否就绪…</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>已就绪</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>已就绪。</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation>AI 引擎：%1</translation>
    </message>
    <message>
        <source>no model to choose</source>
        <translation>无需选择模型</translation>
    </message>
    <message>
        <source>the engine&apos;s default</source>
        <translation>引擎默认模型</translation>
    </message>
</context>
<context>
    <name>EngineSettingsDialog</name>
    <message>
        <source>Engine settings</source>
        <translation>AI 引擎设置</translation>
    </message>
    <message>
        <source>Claude (Anthropic)</source>
        <translation>Claude (Anthropic)</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>Local (Ollama, LM Studio)</source>
        <translation>本机（Ollama、LM Studio）</translation>
    </message>
    <message>
        <source>Engine to set up</source>
        <translation>要设置的 AI 引擎</translation>
    </message>
    <message>
        <source>Which engine these settings are for.</source>
        <translation>这些设置是给哪个 AI 引擎用的。</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>AI 引擎(&amp;E)</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Hidden as you type. Kept in your computer&apos;s keychain.</source>
        <translation>输入时会隐藏。保存在你电脑的钥匙串里。</translation>
    </message>
    <message>
        <source>Keep the key in your computer&apos;s keychain.</source>
        <translation>把密钥保存在你电脑的钥匙串里。</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Delete the stored key from the keychain.</source>
        <translation>从钥匙串里删除已保存的密钥。</translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation>删除已保存的密钥</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>API 密钥(&amp;K)</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <source>Where Ollama or LM Studio answers on this computer or your network.</source>
        <translation>Ollama 或 LM Studio 在这台电脑或你的网络里的地址。</translation>
    </message>
    <message>
        <source>Use %1&apos;s usual address: %2</source>
        <translation>使用 %1 的默认地址：%2</translation>
    </message>
    <message>
        <source>Use the %1 address</source>
        <translation>使用 %1 的地址</translation>
    </message>
    <message>
        <source>Server &amp;address</source>
        <translation>服务地址(&amp;A)</translation>
    </message>
    <message>
        <source>the engine&apos;s default</source>
        <translation>引擎默认模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Which AI model does the work. The list comes from the engine when it can be reached.</source>
        <translation>选择由哪个 AI 模型完成工作。能连上 AI 引擎时，列表由它提供。</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Ask the engine whether it is ready, with this key, address and model. Takes a few seconds at most.</source>
        <translation>用这个密钥、地址和模型问一问 AI 引擎是否就绪。最多几秒钟。</translation>
    </message>
    <message>
        <source>Paste your key here. You get one at %1.</source>
        <translation>把密钥粘贴在这里。可以在 %1 获取。</translation>
    </message>
    <message>
        <source>Keeping the key for this session…</source>
        <translation>正在为本次使用保留密钥…</translation>
    </message>
    <message>
        <source>Saving the key…</source>
        <translation>正在保存密钥…</translation>
    </message>
    <message>
        <source>The key was saved, with a warning.</source>
        <translation>密钥已保存，但有一条提醒。</translation>
    </message>
    <message>
        <source>The key was not saved.</source>
        <translation>密钥没有保存。</translation>
    </message>
    <message>
        <source>%1 needs an API key: a long code from your account on %2 that lets Harness Desk use the AI, billed to that account.</source>
        <translation>%1 需要一个 API 密钥：这是你在 %2 的账户里生成的一长串代码，Harness Desk 凭它使用 AI，费用记在这个账户上。</translation>
    </message>
    <message>
        <source>The local server has no model called “%1”: choose one from the Model list.</source>
        <translation>本机服务器没有“%1”这个模型：请从“模型”列表里选一个。</translation>
    </message>
    <message>
        <source>%1 has no model called “%2” that your key can use: choose one from the Model list.</source>
        <translation>%1 没有你的密钥能用的“%2”模型：请从“模型”列表里选一个。</translation>
    </message>
    <message>
        <source>Paste your key above and press Save key.</source>
        <translation>请把密钥粘贴到上面，然后按“保存密钥”。</translation>
    </message>
    <message>
        <source>Stored in the macOS Keychain.</source>
        <translation>已保存在 macOS 钥匙串里。</translation>
    </message>
    <message>
        <source>Stored in your desktop&apos;s keyring (GNOME Keyring or KWallet).</source>
        <translation>已保存在桌面系统的密钥环（GNOME Keyring 或 KWallet）里。</translation>
    </message>
    <message>
        <source>Stored in KWallet.</source>
        <translation>已保存在 KWallet 里。</translation>
    </message>
    <message>
        <source>Stored in Windows Credential Manager.</source>
        <translation>已保存在 Windows 凭据管理器里。</translation>
    </message>
    <message>
        <source>Stored in your computer&apos;s keychain.</source>
        <translation>已保存在你电脑的钥匙串里。</translation>
    </message>
    <message>
        <source>There is no key yet: paste your key above and press Keep for this session.</source>
        <translation>还没有密钥：请在上面粘贴你的密钥，然后按“只为本次保留”。</translation>
    </message>
    <message>
        <source>Nothing answers at this address: start Ollama, LM Studio or llama.cpp&apos;s llama-server, or correct the address, then press Test connection.</source>
        <translation>这个地址没有任何回应：请启动 Ollama、LM Studio 或 llama.cpp 的 llama-server，或改正地址，然后按“测试连接”。</translation>
    </message>
    <message>
        <source>The server address is not a web address; one looks like http://localhost:11434/v1. Correct it, or press Ollama or LM Studio.</source>
        <translation>服务地址不是一个网址，网址的样子是 http://localhost:11434/v1。请改正它，或者按 Ollama 或 LM Studio。</translation>
    </message>
    <message>
        <source>Kept for this session only: in memory until you quit Harness Desk, never written to a file.</source>
        <translation>只为本次使用保留：在你退出 Harness Desk 之前保存在内存里，从不写入文件。</translation>
    </message>
    <message>
        <source>This computer has no keychain Harness Desk can use, so the key can be kept for this session only: in memory until you quit, never written to a file; next time, paste it again.</source>
        <translation>这台电脑没有 Harness Desk 能用的钥匙串，所以密钥只能为本次保留：在你退出之前只存在内存里，绝不写进文件；下次打开时需要重新粘贴。</translation>
    </message>
    <message>
        <source>Keep for this &amp;session</source>
        <translation>只为本次保留(&amp;S)</translation>
    </message>
    <message>
        <source>Keep the key in memory until you quit Harness Desk; it is never written to a file, and you paste it again next time.</source>
        <translation>在你退出 Harness Desk 之前把密钥保存在内存里；它从不写入文件，下次需要重新粘贴。</translation>
    </message>
    <message>
        <source>Removing the key…</source>
        <translation>正在删除密钥…</translation>
    </message>
    <message>
        <source>&amp;Save key</source>
        <translation>保存密钥(&amp;S)</translation>
    </message>
    <message>
        <source>Your computer&apos;s keychain (where it keeps passwords) did not accept it: unlock the keychain, which may ask for the password you log in with, then press Save key again.</source>
        <translation>未能存入钥匙串（电脑保存密码的地方）：请先解锁钥匙串（可能需要输入你登录电脑的密码），再按一次“保存密钥”。</translation>
    </message>
    <message>
        <source>The key kept for this session is forgotten.</source>
        <translation>为本次保留的密钥已经清除。</translation>
    </message>
    <message>
        <source>The key was removed from the keychain.</source>
        <translation>已从钥匙串里删除密钥。</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>正在测试连接…</translation>
    </message>
    <message>
        <source>The test could not be run. Try again.</source>
        <translation>没能进行测试，请再试一次。</translation>
    </message>
    <message>
        <source>Local uses an AI model running on this computer (or on your network) in Ollama or LM Studio. It needs no key and no account, and nothing leaves your network.</source>
        <translation>“本机”使用在这台电脑（或你的网络里）通过 Ollama 或 LM Studio 运行的 AI 模型。不需要密钥，也不需要账户，任何内容都不会离开你的网络。</translation>
    </message>
    <message>
        <source>%1 needs an API key: a long code from your account on %2 that lets Harness Desk use the AI, billed to that account. The key is kept in your computer&apos;s keychain, never in a file.</source>
        <translation>%1 需要一个 API 密钥：这是你在 %2 的账户里生成的一长串代码，Harness Desk 凭它使用 AI，费用记在这个账户上。密钥保存在你电脑的钥匙串里，绝不会写进文件。</translation>
    </message>
    <message>
        <source>Ready. The engine answered and can do the work.</source>
        <translation>已就绪。AI 引擎有回应，可以开始工作了。</translation>
    </message>
    <message>
        <source>The key was rejected. Check that you copied all of it, or make a new key and paste it above.</source>
        <translation>密钥被拒绝了。请检查是否完整复制，或者新建一个密钥粘贴到上面。</translation>
    </message>
    <message>
        <source>There is no such model. Pick one from the list.</source>
        <translation>没有这个模型。请从列表里选一个。</translation>
    </message>
    <message>
        <source>No answer. Check your internet connection and try again.</source>
        <translation>没有回应。请检查网络连接后再试一次。</translation>
    </message>
    <message>
        <source>Not ready yet.</source>
        <translation>还没有就绪。</translation>
    </message>
    <message>
        <source>Looking in the keychain…</source>
        <translation>正在查看钥匙串…</translation>
    </message>
    <message>
        <source>No key is stored; the key in %1 is used.</source>
        <translation>没有保存密钥；正在使用 %1 里的密钥。</translation>
    </message>
    <message>
        <source>No key is stored yet.</source>
        <translation>还没有保存密钥。</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <source>Something went wrong</source>
        <translation>出错了</translation>
    </message>
    <message>
        <source>Something went wrong inside Harness Desk. Your files are safe. The details were saved to %1. “Copy details” puts them on the clipboard, so you can send them to whoever helps you.</source>
        <translation>Harness Desk 内部出了点问题，你的文件都安然无恙。详细信息已保存到 %1。点“复制详情”会把它们放到剪贴板，方便你发给帮你处理的人。</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>EvidenceDialog</name>
    <message>
        <source>Round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Reading what this round did…</source>
        <translation>正在读取这一轮做了什么…</translation>
    </message>
    <message>
        <source>What the round did</source>
        <translation>这一轮做了什么</translation>
    </message>
    <message>
        <source>Files this round changed</source>
        <translation>这一轮改动的文件</translation>
    </message>
    <message>
        <source>Pick a file to see it before and after the round</source>
        <translation>选一个文件，查看它在这一轮前后的样子</translation>
    </message>
    <message>
        <source>The file before and after the round</source>
        <translation>文件在这一轮前后的对比</translation>
    </message>
    <message>
        <source>Lines with a minus were removed, lines with a plus added</source>
        <translation>带减号的行被删掉了，带加号的行是新加的</translation>
    </message>
    <message>
        <source>&amp;Undo this round…</source>
        <translation>撤销这一轮(&amp;U)…</translation>
    </message>
    <message>
        <source>Green lines (+) are what the round added, red lines (−) what it removed; the lines around them stayed the same.</source>
        <translation>绿色的行（+）是这一轮新加的，红色的行（−）是它删掉的；周围的行保持不变。</translation>
    </message>
    <message>
        <source>Show source</source>
        <translation>显示源文本</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空文件</translation>
    </message>
    <message>
        <source>Switch between the formatted view and the file&apos;s plain text, marks and all</source>
        <translation>在排版后的样子和文件的纯文本（含所有标记）之间切换</translation>
    </message>
    <message>
        <source>Undo this round</source>
        <translation>撤销这一轮</translation>
    </message>
    <message>
        <source>Put the files this round changed back as they were</source>
        <translation>把这一轮改动的文件恢复原样</translation>
    </message>
    <message>
        <source>This round&apos;s records could not be read: %1</source>
        <translation>无法读取这一轮的记录：%1</translation>
    </message>
    <message>
        <source>This round changed no files.</source>
        <translation>这一轮没有改动任何文件。</translation>
    </message>
    <message>
        <source>A run is going. Undo is possible once it stops.</source>
        <translation>正在运行。停止后才能撤销。</translation>
    </message>
    <message>
        <source>What it says it did: %1</source>
        <translation>它说它做了：%1</translation>
    </message>
    <message>
        <source>What it found: %1</source>
        <translation>它发现：%1</translation>
    </message>
    <message>
        <source>Evidence it pointed to: %1</source>
        <translation>依据的文件：%1</translation>
    </message>
    <message>
        <source>Problem: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>No summary was recorded for this round.</source>
        <translation>这一轮没有记录总结。</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>一个文件夹</translation>
    </message>
    <message>
        <source>new file, %1</source>
        <translation>新文件，%1</translation>
    </message>
    <message>
        <source>deleted, was %1</source>
        <translation>已删除，原为 %1</translation>
    </message>
    <message>
        <source>changed, %1 → %2</source>
        <translation>已修改，%1 → %2</translation>
    </message>
    <message>
        <source>The saved copy of this file is missing or damaged, so its content cannot be shown.</source>
        <translation>这个文件保存的副本丢失或损坏了，所以无法显示内容。</translation>
    </message>
    <message>
        <source>This file is not plain text (or is very large), so only its size is shown: before %1, after %2.</source>
        <translation>这个文件不是纯文本（或者太大），所以只显示大小：之前 %1，之后 %2。</translation>
    </message>
    <message>
        <source>Nothing to compare: the file is new.</source>
        <translation>这是新文件，没有可对比的旧版本。</translation>
    </message>
    <message>
        <source>Comparing the two versions…</source>
        <translation>正在比较两个版本…</translation>
    </message>
    <message>
        <source>Show as text</source>
        <translation>按文字显示</translation>
    </message>
    <message>
        <source>Show as it looks</source>
        <translation>按原样显示</translation>
    </message>
    <message>
        <source>Show as the AI reads it</source>
        <translation>按 AI 读到的样子显示</translation>
    </message>
    <message>
        <source>Show formatted</source>
        <translation>显示排版效果</translation>
    </message>
    <message>
        <source>Reading the new file…</source>
        <translation>正在读取新文件…</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>(no picture)</source>
        <translation>（没有图片）</translation>
    </message>
    <message>
        <source>%1 × %2 pixels</source>
        <translation>%1 × %2 像素</translation>
    </message>
    <message>
        <source>Pages without text (scans), shown as pictures</source>
        <translation>没有文字的页面（扫描件），以图片显示</translation>
    </message>
    <message>
        <source>Page %1 (%2 × %3 pixels)</source>
        <translation>第 %1 页（%2 × %3 像素）</translation>
    </message>
    <message>
        <source>Sheet: %1</source>
        <translation>工作表：%1</translation>
    </message>
    <message>
        <source>Sheet: %1 (new)</source>
        <translation>工作表：%1（新建）</translation>
    </message>
    <message>
        <source>Sheet: %1 (removed)</source>
        <translation>工作表：%1（已删除）</translation>
    </message>
    <message>
        <source>No cells.</source>
        <translation>没有单元格。</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>formula %1</source>
        <translation>公式 %1</translation>
    </message>
    <message>
        <source>Before: %1</source>
        <translation>修改前：%1</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>修改后：%1</translation>
    </message>
    <message>
        <source>Changed cells:</source>
        <translation>改动的单元格：</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <source>Calculated afresh when the workbook is next opened</source>
        <translation>下次打开工作簿时重新计算</translation>
    </message>
    <message>
        <source>↻ These formulas are calculated afresh when the workbook is next opened (shown with the value they had): %1.</source>
        <translation>↻ 这些公式会在下次打开工作簿时重新计算（此处显示的是原来的值）：%1。</translation>
    </message>
    <message>
        <source>(only its formatting changed)</source>
        <translation>（只改了格式）</translation>
    </message>
    <message>
        <source>The text and the values shown are the same; only the way the file is stored changes.</source>
        <translation>显示的文字和数值都没有变，变的只是文件的存储方式。</translation>
    </message>
    <message>
        <source>The text and the values shown are the same; what changes is %1.</source>
        <translation>显示的文字和数值都没有变，变的是%1。</translation>
    </message>
    <message>
        <source>Besides what is marked, this also changes %1.</source>
        <translation>除了标出的内容，这次还会改动%1。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <source>its formatting or layout</source>
        <translation>它的格式或版式</translation>
    </message>
    <message>
        <source>its styles</source>
        <translation>它的样式</translation>
    </message>
    <message>
        <source>its properties (such as title and author)</source>
        <translation>它的属性（如标题和作者）</translation>
    </message>
    <message>
        <source>its pictures</source>
        <translation>它的图片</translation>
    </message>
    <message>
        <source>its charts</source>
        <translation>它的图表</translation>
    </message>
    <message>
        <source>its comments</source>
        <translation>它的批注</translation>
    </message>
    <message>
        <source>its settings</source>
        <translation>它的设置</translation>
    </message>
    <message>
        <source>its stored text</source>
        <translation>它存储的文字</translation>
    </message>
    <message>
        <source>other parts of the file</source>
        <translation>文件的其他部分</translation>
    </message>
    <message>
        <source>The sheet as it looks, with the changed cells shaded: the old value struck through above the new one. Hover over a cell for its formula.</source>
        <translation>按工作表的样子显示，改动的单元格带底色：旧值划掉，新值在下方。鼠标停在单元格上可看到公式。</translation>
    </message>
    <message>
        <source>The PDF&apos;s text as paragraphs, lists and tables: added words underlined, removed words struck through.</source>
        <translation>按段落、列表和表格显示 PDF 的文字：新增的文字加下划线，删除的文字划掉。</translation>
    </message>
    <message>
        <source>The document as it looks: added words underlined, removed words struck through, as Word shows tracked changes.</source>
        <translation>按文档的样子显示：新增的文字加下划线，删除的文字划掉，和 Word 的修订标记一样。</translation>
    </message>
    <message>
        <source>This file is too large to show here.</source>
        <translation>这个文件太大，无法在这里显示。</translation>
    </message>
    <message>
        <source>This picture could not be opened; it may be damaged.</source>
        <translation>这张图片打不开，可能已经损坏。</translation>
    </message>
    <message>
        <source>This document cannot be shown: %1</source>
        <translation>无法显示这个文档：%1</translation>
    </message>
    <message>
        <source>A document: its text is compared as plain text (headings with #, tables with |).</source>
        <translation>这是一个文档：按纯文字来比较（标题以 # 开头，表格用 | 分隔）。</translation>
    </message>
    <message>
        <source>A document: its text is compared as the AI reads it (headings with #, tables with |).</source>
        <translation>这是一个文档：按 AI 读到的文字来比较（标题以 # 开头，表格用 | 分隔）。</translation>
    </message>
    <message>
        <source>This change is too big to compare here: before %1, after %2. Open the file to read it.</source>
        <translation>这次改动太大，无法在这里比较：之前 %1，之后 %2。请打开文件查看。</translation>
    </message>
    <message>
        <source>The two versions of this file could not be compared: before %1, after %2.</source>
        <translation>无法比较这个文件的两个版本：之前 %1，之后 %2。</translation>
    </message>
    <message>
        <source>Undone</source>
        <translation>已撤销</translation>
    </message>
    <message numerus="yes">
        <source>Harness Desk turned down %n file action(s) outside what the AI may touch.</source>
        <translation>
            <numerusform>系统拒绝了 %n 次超出 AI 权限范围的文件操作。</numerusform>
        </translation>
    </message>
    <message>
        <source>The text is the same; only the way the file is stored changed (its line endings, say).</source>
        <translation>文字内容没有变化，只是文件的保存方式变了（比如换行符）。</translation>
    </message>
    <message>
        <source>Undo round %1?</source>
        <translation>撤销第 %1 轮？</translation>
    </message>
    <message>
        <source>Undo round %1</source>
        <translation>撤销第 %1 轮</translation>
    </message>
    <message>
        <source>Nothing was put back: %1</source>
        <translation>没有恢复任何文件：%1</translation>
    </message>
</context>
<context>
    <name>EvidenceFlow</name>
    <message>
        <source>Round %1 undone</source>
        <translation>第 %1 轮已撤销</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>PDF (to read and print)</source>
        <translation>PDF（适合阅读和打印）</translation>
    </message>
    <message>
        <source>Document for Word or LibreOffice (ODT)</source>
        <translation>Word 或 LibreOffice 文档（ODT）</translation>
    </message>
    <message>
        <source>Web page (HTML)</source>
        <translation>网页（HTML）</translation>
    </message>
    <message>
        <source>Plain text (Markdown)</source>
        <translation>纯文本（Markdown）</translation>
    </message>
    <message>
        <source>Export summary</source>
        <translation>导出总结</translation>
    </message>
    <message>
        <source>Save a document that tells what happened in %1: the tasks, the decisions, each round and, where an AI worked, what it cost.</source>
        <translation>保存一份文档，记录在“%1”里发生了什么：任务、决定、每一轮，以及用到 AI 时的花费。</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Include</source>
        <translation>包含</translation>
    </message>
    <message>
        <source>This run (the latest)</source>
        <translation>这次运行（最新的一次）</translation>
    </message>
    <message>
        <source>This run (the one picked above the rounds)</source>
        <translation>当前选中的那次运行</translation>
    </message>
    <message>
        <source>Every run in this folder, in order</source>
        <translation>这个文件夹的每一次运行，按先后顺序</translation>
    </message>
    <message>
        <source>One document with every run: useful when your work went on after a decision</source>
        <translation>把所有运行放进一份文档：工作在做完某个决定后又继续了的时候很有用</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Choose where to save the summary</source>
        <translation>选择总结的保存位置</translation>
    </message>
    <message>
        <source>history</source>
        <translation>全部记录</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>总结</translation>
    </message>
    <message>
        <source>Save the summary as</source>
        <translation>把总结另存为</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Open the file in the program your computer uses for it</source>
        <translation>用电脑上对应的程序打开这个文件</translation>
    </message>
    <message>
        <source>Show in &amp;folder</source>
        <translation>在文件夹中显示(&amp;F)</translation>
    </message>
    <message>
        <source>Show where the file is on your computer</source>
        <translation>显示这个文件在电脑上的位置</translation>
    </message>
    <message>
        <source>The round deleted this file: it cannot be opened</source>
        <translation>这一轮删除了这个文件，所以无法打开</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
</context>
<context>
    <name>FilePreviewDialog</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Contents of %1</source>
        <translation>%1 的内容</translation>
    </message>
    <message>
        <source>%1, formatted</source>
        <translation>%1（排版后）</translation>
    </message>
    <message>
        <source>Show source</source>
        <translation>显示源文本</translation>
    </message>
    <message>
        <source>Switch between the formatted view and the file&apos;s plain text, marks and all</source>
        <translation>在排版后的样子和文件的纯文本（含所有标记）之间切换</translation>
    </message>
    <message>
        <source>A copy for reading; changes here are not saved.</source>
        <translation>这是一份只供阅读的副本，在这里的修改不会保存。</translation>
    </message>
    <message>
        <source>it is too large</source>
        <translation>文件太大</translation>
    </message>
    <message>
        <source>it could not be opened</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>A document, shown as text the way the AI reads it; changes here are not saved.</source>
        <translation>这是一个文档，按 AI 读到的样子显示为文字；在这里做的修改不会保存。</translation>
    </message>
    <message>
        <source>Picture %1, %2 × %3 pixels</source>
        <translation>图片 %1，%2 × %3 像素</translation>
    </message>
    <message>
        <source>A scanned PDF with no text the AI can read: page %1 shown as a picture.</source>
        <translation>这是扫描的 PDF，没有 AI 能读的文字：第 %1 页以图片显示。</translation>
    </message>
    <message>
        <source>A picture, %1 × %2 pixels.</source>
        <translation>一张图片，%1 × %2 像素。</translation>
    </message>
    <message>
        <source>Show formatted</source>
        <translation>显示排版效果</translation>
    </message>
    <message>
        <source>%1 does not exist (any more).</source>
        <translation>%1 不存在（或已被删除）。</translation>
    </message>
    <message>
        <source>%1 is not a text file, so it cannot be shown here.</source>
        <translation>%1 不是文本文件，无法在这里显示。</translation>
    </message>
    <message>
        <source>%1 cannot be shown: %2</source>
        <translation>%1 无法显示：%2</translation>
    </message>
</context>
<context>
    <name>FirstPaidRunDialog</name>
    <message>
        <source>Before the first run with %1</source>
        <translation>第一次用 %1 运行之前</translation>
    </message>
    <message>
        <source>%1 charges for the work it does. So that this first run in “%2” never costs more than you expect, it stops once it has cost the amount below; you can then look at what it did and carry on.</source>
        <translation>%1 按工作量收费。为了让在“%2”里的第一次运行不超出你的预期，花费达到下面的金额时运行就会停止；之后你可以先看看它做了什么，再决定是否继续。</translation>
    </message>
    <message>
        <source>Stop the run when it has cost</source>
        <translation>花费达到以下金额时停止运行</translation>
    </message>
    <message>
        <source>You can change this any time under Settings, “Budget per run”.</source>
        <translation>你随时可以在“设置”的“每次运行的预算”里修改。</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
</context>
<context>
    <name>FolderFlow</name>
    <message>
        <source>Open a folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>A run is going in %1. Stop it before opening another folder.</source>
        <translation>“%1”正在运行。请先停止它，再打开别的文件夹。</translation>
    </message>
    <message>
        <source>%1 does not exist (any more).</source>
        <translation>%1 不存在（或已被删除）。</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <source>%1 has a folder called TASKS.md where the task list should be. Rename that folder, then open this one again.</source>
        <translation>%1 里本该放任务清单的地方，有一个名叫 TASKS.md 的文件夹。请给那个文件夹改个名，然后重新打开。</translation>
    </message>
    <message>
        <source>That folder could not be opened: %1</source>
        <translation>无法打开这个文件夹：%1</translation>
    </message>
    <message>
        <source>This folder is gone</source>
        <translation>这个文件夹不在了</translation>
    </message>
    <message>
        <source>Open another folder to go on.</source>
        <translation>请打开另一个文件夹继续。</translation>
    </message>
    <message>
        <source>The tasks on the new list are examples that show how to write one: change them to what you want done, or delete them (Delete).</source>
        <translation>新清单里的任务是示例，演示任务该怎么写：把它们改成你想做的事，或者删掉（Delete 键）。</translation>
    </message>
</context>
<context>
    <name>FolderSafetyGroup</name>
    <message>
        <source>This folder: %1</source>
        <translation>此文件夹：%1</translation>
    </message>
    <message>
        <source>&amp;Tasks in this folder may look things up on the web</source>
        <translation>此文件夹的任务可以上网查资料(&amp;T)</translation>
    </message>
    <message>
        <source>When this is on, the AI service may search the web and read pages for every task in this folder, unless a task says otherwise: each task can still say yes or no in its details. Searches cost money and count in the budget.</source>
        <translation>打开后，AI 服务可以为此文件夹里的每个任务上网搜索、阅读网页，除非任务自己另有说明：每个任务仍可在它的详情里选择可以或不可以。搜索要花钱，计入预算。</translation>
    </message>
    <message>
        <source>&amp;Careful mode: ask me before the AI changes or deletes a file that was already here</source>
        <translation>谨慎模式(&amp;C)：AI 修改或删除这里原有的文件之前先问我</translation>
    </message>
    <message>
        <source>Files and folders the AI may never change, careful mode or not (nor add new files inside these folders):</source>
        <translation>AI 永远不能修改的文件和文件夹，无论是否开启谨慎模式（也不能在这些文件夹里新建文件）：</translation>
    </message>
    <message>
        <source>Protected files and folders</source>
        <translation>受保护的文件和文件夹</translation>
    </message>
    <message>
        <source>Protect a &amp;file…</source>
        <translation>保护一个文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Protect &amp;a folder…</source>
        <translation>保护一个文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Remo&amp;ve protection</source>
        <translation>取消保护(&amp;V)</translation>
    </message>
    <message>
        <source>Stop protecting the chosen file or folder.</source>
        <translation>不再保护选中的文件或文件夹。</translation>
    </message>
    <message>
        <source>Choose a file or folder in the list first.</source>
        <translation>请先在列表里选中一个文件或文件夹。</translation>
    </message>
    <message>
        <source>Only files and folders inside this folder can be protected.</source>
        <translation>只能保护此文件夹里面的文件和文件夹。</translation>
    </message>
    <message>
        <source>Protect a file</source>
        <translation>保护一个文件</translation>
    </message>
    <message>
        <source>Protect a folder</source>
        <translation>保护一个文件夹</translation>
    </message>
</context>
<context>
    <name>GonePage</name>
    <message>
        <source>This folder is gone: it was moved or deleted.</source>
        <translation>这个文件夹不在了：它被移走或删除了。</translation>
    </message>
    <message>
        <source>Open another folder…</source>
        <translation>打开另一个文件夹…</translation>
    </message>
    <message>
        <source>Choose a folder to work in. This one is taken off your recent folders.</source>
        <translation>选一个文件夹来工作。这个文件夹会从你最近打开的文件夹里移除。</translation>
    </message>
</context>
<context>
    <name>HistoryPicker</name>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Asked you a question</source>
        <translation>向你提了一个问题</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Stopped by a problem</source>
        <translation>因出错而停止</translation>
    </message>
    <message>
        <source>Did not finish</source>
        <translation>没有完成</translation>
    </message>
    <message>
        <source>Shown as a sample, not done</source>
        <translation>只是示例，并未完成</translation>
    </message>
    <message>
        <source>d MMM yyyy, HH:mm</source>
        <translation>yyyy年M月d日 HH:mm</translation>
    </message>
    <message>
        <source>Show the rounds of</source>
        <translation>查看哪次运行</translation>
    </message>
    <message>
        <source>The recent runs, or one earlier run of this folder</source>
        <translation>最近的运行，或这个文件夹之前的某一次运行</translation>
    </message>
    <message>
        <source>Pick an earlier run to see its rounds; open a round to see what it changed</source>
        <translation>选一次之前的运行，查看它的每一轮；打开某一轮，查看它改了什么</translation>
    </message>
    <message>
        <source>Demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>Recent runs</source>
        <translation>最近的运行</translation>
    </message>
</context>
<context>
    <name>LessonsDialog</name>
    <message>
        <source>Lessons from this folder&apos;s runs</source>
        <translation>本文件夹的经验</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>经验</translation>
    </message>
    <message>
        <source>Open a round to see what it did</source>
        <translation>打开某一轮，看看它做了什么</translation>
    </message>
    <message>
        <source>AGENTS.md as it will read</source>
        <translation>加上之后的 AGENTS.md</translation>
    </message>
    <message>
        <source>&amp;Accept: add to AGENTS.md</source>
        <translation>接受：加到 AGENTS.md(&amp;A)</translation>
    </message>
    <message>
        <source>Accept: add to AGENTS.md</source>
        <translation>接受：加到 AGENTS.md</translation>
    </message>
    <message>
        <source>Adds the proposed line at the end of AGENTS.md</source>
        <translation>把建议的这句话加到 AGENTS.md 的末尾</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>不采纳(&amp;D)</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>不采纳</translation>
    </message>
    <message>
        <source>Hides this lesson; AGENTS.md is not changed</source>
        <translation>隐藏这条经验；AGENTS.md 不会改动</translation>
    </message>
    <message>
        <source>Where it happened</source>
        <translation>出现在哪里</translation>
    </message>
    <message>
        <source>Proposed line</source>
        <translation>建议加入的一句话</translation>
    </message>
    <message>
        <source>Reading this folder&apos;s runs…</source>
        <translation>正在读取这个文件夹的运行记录…</translation>
    </message>
    <message>
        <source>once</source>
        <translation>1 次</translation>
    </message>
    <message>
        <source>%1 times</source>
        <translation>%1 次</translation>
    </message>
    <message>
        <source>%1 answered with an error %2</source>
        <translation>%1 出错，共 %2</translation>
    </message>
    <message>
        <source>%1 was read in round after round that made no progress (%2)</source>
        <translation>%1 在一轮又一轮没有进展的尝试中被反复读取（%2）</translation>
    </message>
    <message>
        <source>The AI answered without using a tool %2</source>
        <translation>AI 回复时没有使用工具，共 %2</translation>
    </message>
    <message>
        <source>Rounds ran long without finishing %2</source>
        <translation>有几轮做了很久也没完成，共 %2</translation>
    </message>
    <message>
        <source>Harness Desk looked through this folder&apos;s runs for what went wrong or was wasteful. Accepting a lesson adds its line to AGENTS.md: the standing instructions, a note in your folder that the AI reads at the start of every round, like a brief you give a new helper. Nothing is added without your Accept.</source>
        <translation>系统查看了这个文件夹的各次运行，找出出错或白费功夫的地方。接受一条经验，就会把它那一行加到 AGENTS.md 里。AGENTS.md 是长期指示：放在你文件夹里的一份说明，AI 每一轮开始时都会先读，就像你交给新帮手的一份工作须知。不经你接受，什么都不会添加。</translation>
    </message>
    <message>
        <source>Harness Desk kept the AI away from %1 %2</source>
        <translation>系统阻止了 AI 访问 %1，%2</translation>
    </message>
    <message>
        <source>Harness Desk turned down %1 %2 (the AI asked for it the wrong way)</source>
        <translation>系统拒绝了 %1，%2（AI 的请求方式不对）</translation>
    </message>
    <message>
        <source>Harness Desk stopped the AI repeating %1 %2</source>
        <translation>系统制止了 AI 重复 %1，%2</translation>
    </message>
    <message>
        <source>A round gave up on “%1” and said what it found</source>
        <translation>有一轮放弃了“%1”，并说明了它的发现</translation>
    </message>
    <message>
        <source>You undid changes to %1 %2</source>
        <translation>你撤销过 %2对 %1 的修改</translation>
    </message>
    <message>
        <source>The AI asked again what you already decided: “%1” (%2)</source>
        <translation>AI 又问了你已经决定过的问题：“%1”（%2）</translation>
    </message>
    <message>
        <source>You did not allow a change to %1 %2</source>
        <translation>你没有允许修改 %1，共 %2</translation>
    </message>
    <message>
        <source>The AI tried to change %1, which you protected, %2</source>
        <translation>AI 试图修改你保护的 %1，共 %2</translation>
    </message>
    <message>
        <source>Seen in 1 run</source>
        <translation>出现在 1 次运行中</translation>
    </message>
    <message>
        <source>Seen in %1 runs</source>
        <translation>出现在 %1 次运行中</translation>
    </message>
    <message>
        <source>Accepted on %1</source>
        <translation>%1 接受</translation>
    </message>
    <message>
        <source>no run since it was accepted</source>
        <translation>接受后还没有新的运行</translation>
    </message>
    <message>
        <source>since accepted: %1 of %2 runs showed it again</source>
        <translation>接受后的 %2 次运行里又出现了 %1 次</translation>
    </message>
    <message>
        <source>Run %1, round %2</source>
        <translation>第 %1 次运行，第 %2 轮</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>另有 %1 处</translation>
    </message>
    <message>
        <source>The lessons could not be read from this folder&apos;s records.</source>
        <translation>无法从这个文件夹的记录中读取经验。</translation>
    </message>
    <message>
        <source>No lessons yet: the runs of this folder showed nothing that needs a standing instruction.</source>
        <translation>还没有经验：这个文件夹的运行中没有出现需要写成长期指示的问题。</translation>
    </message>
    <message>
        <source>Where it happened: %1 places</source>
        <translation>出现在哪里：共 %1 处</translation>
    </message>
    <message>
        <source>Line in AGENTS.md</source>
        <translation>AGENTS.md 里的这句话</translation>
    </message>
    <message>
        <source>AGENTS.md now</source>
        <translation>现在的 AGENTS.md</translation>
    </message>
    <message>
        <source>Reading AGENTS.md…</source>
        <translation>正在读取 AGENTS.md…</translation>
    </message>
    <message>
        <source>AGENTS.md cannot be added to: it is not an ordinary text file in this folder.</source>
        <translation>无法往 AGENTS.md 里添加：它不是这个文件夹里的普通文本文件。</translation>
    </message>
    <message>
        <source>With this line AGENTS.md would be %1 characters, more than the 4,000 the AI reads. Shorten AGENTS.md first.</source>
        <translation>加上这句话后 AGENTS.md 会有 %1 个字符，超过 AI 读取的 4,000 个字符。请先把 AGENTS.md 缩短。</translation>
    </message>
    <message>
        <source>Added to AGENTS.md. The next rounds read it.</source>
        <translation>已加到 AGENTS.md。之后的每一轮都会读到它。</translation>
    </message>
    <message>
        <source>AGENTS.md already had this line; it was left as it is.</source>
        <translation>AGENTS.md 里已经有这句话，保持原样。</translation>
    </message>
    <message>
        <source>Dismissed. AGENTS.md was not changed.</source>
        <translation>已不采纳。AGENTS.md 没有改动。</translation>
    </message>
    <message>
        <source>Nothing was changed: AGENTS.md or the lessons could not be written.</source>
        <translation>没有任何改动：无法写入 AGENTS.md 或经验记录。</translation>
    </message>
    <message>
        <source>That round&apos;s record is no longer in this folder.</source>
        <translation>这一轮的记录已经不在这个文件夹里了。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a fresh copy of the &amp;demo</source>
        <translation>打开全新的演示副本(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New task</source>
        <translation>新建任务(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Plan with AI…</source>
        <translation>用 AI 规划(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Export summary…</source>
        <translation>导出总结(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run or continue</source>
        <translation>运行或继续(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Answer the open &amp;decision…</source>
        <translation>去做决定(&amp;D)…</translation>
    </message>
    <message>
        <source>Run &amp;history</source>
        <translation>运行历史(&amp;H)</translation>
    </message>
    <message>
        <source>Every earlier run of this folder: pick one to see its rounds</source>
        <translation>这个文件夹以前的每次运行：选一次即可查看它的每一轮</translation>
    </message>
    <message>
        <source>&amp;Lessons from this folder&apos;s runs…</source>
        <translation>本文件夹的经验(&amp;L)…</translation>
    </message>
    <message>
        <source>Run this folder on a s&amp;chedule…</source>
        <translation>定时运行这个文件夹(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Harness Desk…</source>
        <translation>关于 Harness Desk(&amp;A)…</translation>
    </message>
    <message>
        <source>Open a folder first (Ctrl+O).</source>
        <translation>请先打开一个文件夹（Ctrl+O）。</translation>
    </message>
    <message>
        <source>Nothing is running now.</source>
        <translation>现在没有正在进行的运行。</translation>
    </message>
    <message>
        <source>Stopping after this step…</source>
        <translation>这一步结束后停止…</translation>
    </message>
    <message>
        <source>The AI is working now: Stop ends the run (Ctrl+.).</source>
        <translation>AI 正在工作：按“停止”可以结束这次运行（Ctrl+.）。</translation>
    </message>
    <message>
        <source>Nothing to export yet: the summary tells what a run did.</source>
        <translation>还没有可以导出的内容：总结记录的是一次运行做了什么。</translation>
    </message>
    <message>
        <source>A decision is waiting for you: answer it first (Ctrl+D).</source>
        <translation>有一个决定在等你：请先回答它（Ctrl+D）。</translation>
    </message>
    <message>
        <source>No decision is waiting for you.</source>
        <translation>现在没有等你做的决定。</translation>
    </message>
    <message>
        <source>This folder has no task list yet: create one on the left, or Plan with AI (Ctrl+Shift+N).</source>
        <translation>这个文件夹还没有任务清单：在左边新建一份，或者用 AI 规划（Ctrl+Shift+N）。</translation>
    </message>
    <message>
        <source>The task list cannot be read: save TASKS.md as UTF-8 first.</source>
        <translation>任务清单读不了：请先把 TASKS.md 另存为 UTF-8。</translation>
    </message>
    <message>
        <source>There is no task left to do: add one first (Ctrl+N).</source>
        <translation>没有要做的任务了：先添加一项（Ctrl+N）。</translation>
    </message>
    <message>
        <source>A run is going</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <source>The run is waiting before its next step while you choose. Stop it and close? Nothing is left half-written.</source>
        <translation>你考虑期间，运行停在下一步之前等着。要停止运行并关闭吗？不会留下写了一半的内容。</translation>
    </message>
    <message>
        <source>Stop and close</source>
        <translation>停止并关闭</translation>
    </message>
    <message>
        <source>Keep working</source>
        <translation>继续工作</translation>
    </message>
    <message>
        <source>The run has ended</source>
        <translation>运行已结束</translation>
    </message>
    <message>
        <source>The run has ended meanwhile. Close the window?</source>
        <translation>运行已经结束了。要关闭窗口吗？</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Close this note</source>
        <translation>关闭这条提示</translation>
    </message>
</context>
<context>
    <name>PlanButton</name>
    <message>
        <source>Plan with AI…</source>
        <translation>用 AI 规划…</translation>
    </message>
    <message>
        <source>Say in a sentence what you want to achieve; the AI proposes tasks and you choose which go on your list. Nothing changes until you add them.</source>
        <translation>用一句话说出你想达成的目标；AI 会提出任务，由你挑选哪些放进清单。在你添加之前，什么都不会改变。</translation>
    </message>
</context>
<context>
    <name>PlanCard</name>
    <message>
        <source>no tasks proposed</source>
        <translation>没有提出任务</translation>
    </message>
    <message>
        <source>1 task proposed</source>
        <translation>提出了 1 项任务</translation>
    </message>
    <message>
        <source>%1 tasks proposed</source>
        <translation>提出了 %1 项任务</translation>
    </message>
    <message>
        <source>1 step</source>
        <translation>1 步</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <source>Plan with AI</source>
        <translation>用 AI 规划</translation>
    </message>
    <message>
        <source>Sample plan</source>
        <translation>示例规划</translation>
    </message>
    <message>
        <source>What could come next</source>
        <translation>接下来可以做什么</translation>
    </message>
    <message>
        <source>no AI used</source>
        <translation>没有用到 AI</translation>
    </message>
    <message>
        <source>no file changed</source>
        <translation>没有改动任何文件</translation>
    </message>
</context>
<context>
    <name>PlanDialog</name>
    <message>
        <source>Suggest next tasks</source>
        <translation>建议接下来的任务</translation>
    </message>
    <message>
        <source>Plan with AI</source>
        <translation>用 AI 规划</translation>
    </message>
    <message>
        <source>The AI looks at what the last run did and suggests what could come next.</source>
        <translation>AI 会查看上次运行做了什么，并建议接下来可以做的事。</translation>
    </message>
    <message>
        <source>Nothing is added to your list until you choose.</source>
        <translation>在你挑选之前，清单不会有任何改动。</translation>
    </message>
    <message>
        <source>Say in a sentence what you want to achieve. The AI looks at the files in this folder and proposes tasks. Nothing is added to your list until you choose.</source>
        <translation>用一句话说出你想达成的目标。AI 会查看这个文件夹里的文件并提出任务。在你挑选之前，清单不会有任何改动。</translation>
    </message>
    <message>
        <source>Say in a sentence what you want to achieve. Nothing is added to your list until you choose.</source>
        <translation>用一句话说出你想达成的目标。在你挑选之前，清单不会有任何改动。</translation>
    </message>
    <message>
        <source>Your goal</source>
        <translation>你的目标</translation>
    </message>
    <message>
        <source>Optional: what you would like next</source>
        <translation>可选：你接下来想做什么</translation>
    </message>
    <message>
        <source>For example: Plan a birthday party for my daughter</source>
        <translation>例如：为女儿筹办一场生日聚会</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Ask the AI for a list of tasks (it changes no files)</source>
        <translation>请 AI 提出一份任务清单（它不会改动任何文件）</translation>
    </message>
    <message>
        <source>Propose a list of sample tasks (it changes no files)</source>
        <translation>提出一份示例任务清单（不会改动任何文件）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop planning</source>
        <translation>停止规划</translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation>AI 引擎：%1</translation>
    </message>
    <message>
        <source>The AI engine chosen in the window. Change it there.</source>
        <translation>主窗口里选定的 AI 引擎。要更换，请在主窗口里选择。</translation>
    </message>
    <message>
        <source>The Demo engine uses no AI: it suggests the same three kinds of next task after any run, so you can see how it works. For suggestions made for your work, choose an AI engine in the window.</source>
        <translation>演示引擎不使用 AI：无论哪次运行之后，它都提出同样三类后续任务，让你看看这个功能怎么用。想要针对你的工作提出建议，请在窗口里选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>The Demo engine uses no AI: it proposes the same five kinds of task for any goal, so you can see how planning works. For a plan made for your goal and your files, choose an AI engine in the window.</source>
        <translation>演示引擎不使用 AI：无论什么目标，它都提出同样五类任务，让你看看规划是怎么进行的。想要针对你的目标和文件做规划，请在窗口里选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>Planning status</source>
        <translation>规划状态</translation>
    </message>
    <message>
        <source>About this plan</source>
        <translation>关于这次规划</translation>
    </message>
    <message>
        <source>What should change</source>
        <translation>需要改什么</translation>
    </message>
    <message>
        <source>What should change? For example: fewer tasks, start with the budget</source>
        <translation>需要改什么？例如：任务少一些，先从预算开始</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>再试一次</translation>
    </message>
    <message>
        <source>Plan again, taking your note into account</source>
        <translation>按你的意见重新规划</translation>
    </message>
    <message>
        <source>Add to my list</source>
        <translation>添加到我的清单</translation>
    </message>
    <message>
        <source>Put the ticked tasks at the end of your list</source>
        <translation>把勾选的任务添加到清单末尾</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dismiss these tasks</source>
        <translation>不要这些任务</translation>
    </message>
    <message>
        <source>Forget these proposed tasks; your list stays as it is</source>
        <translation>放弃这些提议的任务；你的任务清单保持不变</translation>
    </message>
    <message>
        <source>These are the tasks proposed last time. Tick the ones you want, then add them to your list.</source>
        <translation>这是上次提议的任务。勾选你想要的，再把它们添加到任务清单。</translation>
    </message>
    <message>
        <source>Write your goal first, in a sentence.</source>
        <translation>请先用一句话写下你的目标。</translation>
    </message>
    <message>
        <source>Planning… the AI is looking at your folder.</source>
        <translation>正在规划… AI 正在查看你的文件夹。</translation>
    </message>
    <message>
        <source>Planning… the Demo engine is looking at your folder.</source>
        <translation>正在规划…演示引擎正在查看你的文件夹。</translation>
    </message>
    <message>
        <source>Stopping after this step…</source>
        <translation>这一步结束后停止…</translation>
    </message>
    <message>
        <source>Looking at the files in the folder…</source>
        <translation>正在查看文件夹里的文件…</translation>
    </message>
    <message>
        <source>Looking at the files in %1…</source>
        <translation>正在查看 %1 里的文件…</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Searching for %1…</source>
        <translation>正在查找“%1”…</translation>
    </message>
    <message>
        <source>Looking at %1…</source>
        <translation>正在查看 %1…</translation>
    </message>
    <message>
        <source>The AI service is busy; trying again in %1 s…</source>
        <translation>AI 服务正忙，%1 秒后重试…</translation>
    </message>
    <message>
        <source>Tick the tasks you want, change their words if you like, then add them to your list.</source>
        <translation>勾选你想要的任务，需要的话改改措辞，然后把它们添加到清单。</translation>
    </message>
    <message>
        <source>Planning was stopped. Nothing was added.</source>
        <translation>规划已停止。没有添加任何任务。</translation>
    </message>
    <message>
        <source>The AI&apos;s tasks did not fit a checklist, even when asked again. Try again, perhaps with a simpler goal.</source>
        <translation>AI 提出的任务不符合清单的格式，请它重写后仍然不行。请再试一次，也许换一个更简单的目标。</translation>
    </message>
    <message>
        <source>The AI answered without proposing tasks. Try again.</source>
        <translation>AI 回复了，但没有提出任务。请再试一次。</translation>
    </message>
    <message>
        <source>The AI looked around too long without proposing tasks. Try again with a more specific goal.</source>
        <translation>AI 查看了太久，却没有提出任务。请换一个更具体的目标再试一次。</translation>
    </message>
    <message>
        <source>Planning took too long. Try again.</source>
        <translation>规划用时太长。请再试一次。</translation>
    </message>
    <message>
        <source>Planning stopped at your spending limit.</source>
        <translation>规划在达到你的费用上限时停止了。</translation>
    </message>
    <message>
        <source>Planning did not work: %1</source>
        <translation>规划没有成功：%1</translation>
    </message>
    <message>
        <source>This plan: %1</source>
        <translation>这次规划%1</translation>
    </message>
    <message>
        <source>Add to my list (%1)</source>
        <translation>添加到我的清单（%1）</translation>
    </message>
    <message>
        <source>Nothing was added: “%1” is already on your list. Untick it or change its words.</source>
        <translation>没有添加任何任务：“%1”已经在你的清单上。请取消勾选，或者改一下措辞。</translation>
    </message>
    <message>
        <source>Nothing was added: %1</source>
        <translation>没有添加任何任务：%1</translation>
    </message>
</context>
<context>
    <name>PlanFlow</name>
    <message>
        <source>The proposed tasks are kept.</source>
        <translation>提议的任务已为你保留。</translation>
    </message>
    <message>
        <source>Show them</source>
        <translation>查看</translation>
    </message>
    <message>
        <source>Added 1 task to your list. Press Run when you are ready.</source>
        <translation>已把 1 项任务添加到你的清单。准备好后请按“运行”。</translation>
    </message>
    <message>
        <source>Added %1 tasks to your list. Press Run when you are ready.</source>
        <translation>已把 %1 项任务添加到你的清单。准备好后请按“运行”。</translation>
    </message>
    <message>
        <source>Every task is done.</source>
        <translation>所有任务都完成了。</translation>
    </message>
    <message>
        <source>Suggest next tasks</source>
        <translation>建议接下来的任务</translation>
    </message>
</context>
<context>
    <name>PlanRunner</name>
    <message>
        <source>Planning stopped because of an unexpected error. Details were saved to %1.</source>
        <translation>规划因意外错误而停止。详细信息已保存到 %1。</translation>
    </message>
</context>
<context>
    <name>ProposalList</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>How to tell it is done</source>
        <translation>完成标准</translation>
    </message>
    <message>
        <source>Proposed tasks</source>
        <translation>提出的任务</translation>
    </message>
    <message>
        <source>Tick the tasks you want. Double-click or press F2 to change a task&apos;s words; drag, or Alt+Up and Alt+Down, to change the order; Delete removes one.</source>
        <translation>勾选你想要的任务。双击或按 F2 修改任务的措辞；拖动或按 Alt+Up、Alt+Down 调整顺序；按删除键删除一项。</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Move the selected task up (Alt+Up)</source>
        <translation>把选中的任务上移（Alt+Up）</translation>
    </message>
    <message>
        <source>Move the selected task down (Alt+Down)</source>
        <translation>把选中的任务下移（Alt+Down）</translation>
    </message>
    <message>
        <source>Take the selected task off this list (Delete)</source>
        <translation>把选中的任务从这份建议里删除（删除键）</translation>
    </message>
    <message>
        <source>Done when, one per line</source>
        <translation>完成标准，每行一条</translation>
    </message>
    <message>
        <source>One line each: what shows the task is done</source>
        <translation>每行一条：怎样看出任务已完成</translation>
    </message>
    <message>
        <source>Options, one per line</source>
        <translation>选项，每行一个</translation>
    </message>
    <message>
        <source>2 to 4 answers, one per line</source>
        <translation>2 到 4 个答案，每行一个</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>A decision is a task only you answer; the run stops and asks you to choose.</source>
        <translation>决定是只有你能回答的任务；运行到这里会停下来请你选择。</translation>
    </message>
    <message>
        <source>Done when:</source>
        <translation>完成标准：</translation>
    </message>
    <message>
        <source>Your decision: %1</source>
        <translation>由你决定：%1</translation>
    </message>
    <message>
        <source>A decision: the run stops here and asks you.</source>
        <translation>这是一个决定：运行到这里会停下来问你。</translation>
    </message>
</context>
<context>
    <name>RoundCard</name>
    <message>
        <source>Open this round: what it did, each file before and after, and Undo</source>
        <translation>打开这一轮：它做了什么、每个文件前后的对比，以及撤销</translation>
    </message>
    <message>
        <source>Undone: its changes were taken back</source>
        <translation>已撤销：改动已还原</translation>
    </message>
    <message>
        <source>Round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Had changed: %1</source>
        <translation>原先改动过：%1</translation>
    </message>
    <message>
        <source>No lookups are left for this task in this run. Raise “Web lookups per task” in Settings to let it look further.</source>
        <translation>这个任务在本次运行中已经没有上网查询次数了。在“设置”里调高“每个任务的上网查询次数”，它就能继续查。</translation>
    </message>
    <message>
        <source>Wrote a sample note for this task (no AI was used).</source>
        <translation>为这个任务写了一份示例笔记（没有用到 AI）。</translation>
    </message>
    <message>
        <source>Its sample note from an earlier round was already there, word for word, so nothing was written (no AI was used).</source>
        <translation>这个任务的示例笔记在之前的一轮里已经写好，内容一字不差，所以这次没有再写（没有用到 AI）。</translation>
    </message>
    <message>
        <source>No files changed</source>
        <translation>没有改动文件</translation>
    </message>
    <message>
        <source>1 file changed: %2</source>
        <translation>改动了 1 个文件：%2</translation>
    </message>
    <message>
        <source>%1 files changed: %2</source>
        <translation>改动了 %1 个文件：%2</translation>
    </message>
    <message>
        <source>1 new file: %2</source>
        <translation>新建了 1 个文件：%2</translation>
    </message>
    <message>
        <source>%1 new files: %2</source>
        <translation>新建了 %1 个文件：%2</translation>
    </message>
    <message>
        <source>1 new file, %3 changed: %2</source>
        <translation>新建了 1 个文件，改动了 %3 个：%2</translation>
    </message>
    <message>
        <source>%1 new files, %3 changed: %2</source>
        <translation>新建了 %1 个文件，改动了 %3 个：%2</translation>
    </message>
    <message>
        <source>Press Enter to open it</source>
        <translation>按 Enter 打开</translation>
    </message>
</context>
<context>
    <name>RoundCardList</name>
    <message>
        <source>Rounds</source>
        <translation>每一轮</translation>
    </message>
    <message>
        <source>No rounds yet. Each attempt at a task shows up here as a card: what it did, which files it changed, and what it cost.</source>
        <translation>还没有任何一轮。每处理一次任务，这里就会出现一张卡片：做了什么、改了哪些文件、花了多少钱。</translation>
    </message>
    <message>
        <source>Earlier run, started %1</source>
        <translation>之前的运行，开始于 %1</translation>
    </message>
    <message>
        <source>Earlier run</source>
        <translation>之前的运行</translation>
    </message>
    <message>
        <source>Show older rounds (%1 more)</source>
        <translation>显示更早的轮次（还有 %1 轮）</translation>
    </message>
    <message>
        <source>Show older cards</source>
        <translation>显示更早的卡片</translation>
    </message>
</context>
<context>
    <name>RunFlow</name>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Stopping after this step…</source>
        <translation>这一步结束后停止…</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <source>Export summary…</source>
        <translation>导出总结…</translation>
    </message>
    <message>
        <source>Save a document that describes the last run</source>
        <translation>保存一份记录上次运行的文档</translation>
    </message>
    <message>
        <source>Welcome! This is a demo: the new website of a small bakery, with its tasks on the left. Press Run to watch the Demo engine work through them and ask you one decision.</source>
        <translation>欢迎！这是一个演示：一家小面包房的新网站，任务列在左边。按“运行”，看演示引擎一项项完成它们，中途还会请你做一个决定。</translation>
    </message>
    <message>
        <source>Nothing to run yet</source>
        <translation>还没有可以运行的任务</translation>
    </message>
    <message>
        <source>Add a task on the left, then press Run.</source>
        <translation>在左边添加一个任务后，你就可以按“运行”了。</translation>
    </message>
    <message>
        <source>Press Run to start on the first unchecked task.</source>
        <translation>按“运行”，从第一个未勾选的任务开始。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Save a PDF, document or web page that tells what the last run did, to read or share (Ctrl+E).</source>
        <translation>把上次运行做了什么保存成 PDF、文档或网页，方便阅读或分享（Ctrl+E）。</translation>
    </message>
    <message>
        <source>%1 of %2 done</source>
        <translation>已完成 %1 / %2</translation>
    </message>
    <message>
        <source>Tasks: %1 of %2 done</source>
        <translation>任务：已完成 %1 / %2</translation>
    </message>
    <message>
        <source>nothing used, no cost</source>
        <translation>没有产生用量和费用</translation>
    </message>
    <message>
        <source>1 lesson from this run</source>
        <translation>本次运行得到 1 条经验</translation>
    </message>
    <message>
        <source>%1 lessons from this run</source>
        <translation>本次运行得到 %1 条经验</translation>
    </message>
    <message>
        <source>Opens the lessons</source>
        <translation>打开经验</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Needs your decision</source>
        <translation>需要你来决定</translation>
    </message>
    <message>
        <source>A run is going elsewhere</source>
        <translation>别处正在运行</translation>
    </message>
    <message>
        <source>Another window or the terminal is running this folder. Wait for it to end.</source>
        <translation>另一个窗口或终端正在处理这个文件夹，请等它结束。</translation>
    </message>
    <message>
        <source>The last run was interrupted</source>
        <translation>上次运行被中断了</translation>
    </message>
    <message>
        <source>Ready to show a sample</source>
        <translation>可以演示一次运行了</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>准备就绪</translation>
    </message>
    <message>
        <source>%1 cannot run yet</source>
        <translation>%1 现在还不能运行</translation>
    </message>
    <message>
        <source>%1 needs your API key</source>
        <translation>%1 需要你的 API 密钥</translation>
    </message>
    <message>
        <source>This computer has no keychain: keep your %1 API key for this session in Engine settings, then press Run.</source>
        <translation>这台电脑没有可用的钥匙串：可以在 AI 引擎设置里填入你的 %1 API 密钥，只为本次使用保留，然后按“运行”。</translation>
    </message>
    <message>
        <source>Paste your %1 API key in Engine settings, then press Run.</source>
        <translation>请在 AI 引擎设置里粘贴你的 %1 API 密钥，然后按“运行”。</translation>
    </message>
    <message>
        <source>Nothing left to do</source>
        <translation>没有要做的了</translation>
    </message>
    <message>
        <source>Every task on the list is checked. Add a task, or untick one to do it again.</source>
        <translation>清单上的任务都已勾选。添加一项任务，或取消勾选某项让它重新做。</translation>
    </message>
    <message>
        <source>No task list yet</source>
        <translation>还没有任务清单</translation>
    </message>
    <message>
        <source>Create the task list on the left, write what you want done, then press Run.</source>
        <translation>在左边新建任务清单，写下你想完成的事，然后按“运行”。</translation>
    </message>
</context>
<context>
    <name>Runner</name>
    <message>
        <source>The run stopped because of an unexpected error. Details were saved to %1.</source>
        <translation>运行因意外错误而停止。详细信息已保存到 %1。</translation>
    </message>
</context>
<context>
    <name>ScheduleDialog</name>
    <message>
        <source>Run this folder on a schedule</source>
        <translation>定时运行这个文件夹</translation>
    </message>
    <message>
        <source>Your computer&apos;s own scheduler starts the run at these times, also while this window is closed. A run stops at its budget, and when it needs you it stops and leaves the decision on the task list.</source>
        <translation>到了设定的时间，电脑自带的计划任务程序会启动运行，这个窗口关着也一样。每次运行花到预算就停；遇到要你决定的事，它会停下来，把问题留在任务清单上。</translation>
    </message>
    <message>
        <source>Every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <source>On these days of the week</source>
        <translation>每周的这几天</translation>
    </message>
    <message>
        <source>Every month</source>
        <translation>每月</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>运行(&amp;R)：</translation>
    </message>
    <message>
        <source>Days:</source>
        <translation>哪几天：</translation>
    </message>
    <message>
        <source>A day past the month&apos;s end (the 31st in April) means the month&apos;s last day.</source>
        <translation>超出当月天数的日期（如 4 月 31 日）即指当月最后一天。</translation>
    </message>
    <message>
        <source>On &amp;day:</source>
        <translation>日期(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;At:</source>
        <translation>时间(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Engine:</source>
        <translation>引擎(&amp;E)：</translation>
    </message>
    <message>
        <source>the model chosen in Engine settings</source>
        <translation>在“AI 引擎设置”里选的模型</translation>
    </message>
    <message>
        <source>Remo&amp;ve schedule</source>
        <translation>删除定时(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Budget per run:</source>
        <translation>每次运行的预算(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Careful mode: a change to a file that was already in the folder waits for your answer</source>
        <translation>谨慎模式(&amp;C)：修改文件夹里原有的文件前，先等你答复</translation>
    </message>
    <message>
        <source>&amp;Save schedule</source>
        <translation>保存定时(&amp;S)</translation>
    </message>
    <message>
        <source>Set a budget per run: a scheduled run never starts without one, so it can never spend more than you meant.</source>
        <translation>请设置每次运行的预算：没有预算，定时运行不会开始，这样花费就不会超出你的预期。</translation>
    </message>
    <message>
        <source>Choose at least one day of the week.</source>
        <translation>请至少选择一周中的一天。</translation>
    </message>
    <message>
        <source>%1 Until then, its scheduled runs would stop at once.</source>
        <translation>%1在那之前，定时运行一开始就会停下。</translation>
    </message>
    <message>
        <source>%1&apos;s key is kept for this session only, so a scheduled run cannot use it: save the key in the keychain from Engine settings.</source>
        <translation>%1 的密钥只为本次使用保留，定时运行用不到它：请在 AI 引擎设置里把密钥保存到钥匙串。</translation>
    </message>
    <message>
        <source>The Demo engine uses no AI: on a schedule it would only show a sample run each time. To get the work done, choose an AI engine above.</source>
        <translation>演示引擎不使用 AI：按时运行时，它每次只会演示一次运行的样子。要真正完成工作，请在上面选择一个 AI 引擎。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>The schedule could not be removed: %1</source>
        <translation>无法删除定时：%1</translation>
    </message>
    <message>
        <source>The schedule could not be saved: %1</source>
        <translation>无法保存定时：%1</translation>
    </message>
</context>
<context>
    <name>ScheduleFlow</name>
    <message>
        <source>Run this folder on a schedule…</source>
        <translation>定时运行这个文件夹…</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>更改…</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>The schedule is removed: this folder no longer runs on its own.</source>
        <translation>定时运行已删除：这个文件夹不会再自动运行。</translation>
    </message>
    <message>
        <source>The schedule could not be removed: %1</source>
        <translation>无法删除定时：%1</translation>
    </message>
</context>
<context>
    <name>ScheduleLine</name>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove this folder&apos;s schedule</source>
        <translation>删除此文件夹的定时</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Sav&amp;e</source>
        <translation>保存(&amp;E)</translation>
    </message>
    <message>
        <source>How long a run may go</source>
        <translation>一次运行最多做多久</translation>
    </message>
    <message>
        <source>A run stops at the first of these limits it reaches and says which one; Continue carries on from there.</source>
        <translation>运行一碰到下面任何一个上限就会停下，并告诉你是哪一个；按“继续”可以从那里接着做。</translation>
    </message>
    <message>
        <source>Rounds per run</source>
        <translation>每次运行的轮数</translation>
    </message>
    <message>
        <source>A round is one task worked on. The run stops after this many rounds.</source>
        <translation>一轮就是做一次任务。做满这么多轮后，运行就停下。</translation>
    </message>
    <message>
        <source>&amp;Rounds per run</source>
        <translation>每次运行的轮数(&amp;R)</translation>
    </message>
    <message>
        <source>A round is the AI working on one task; the run stops after this many.</source>
        <translation>一轮就是 AI 处理一项任务；达到这个轮数后，运行就会停止。</translation>
    </message>
    <message>
        <source>Steps per round</source>
        <translation>每轮的步数</translation>
    </message>
    <message>
        <source>A step is one answer from the AI (reading a file, writing one). A round stops after this many.</source>
        <translation>一步就是 AI 的一次行动（读一个文件、写一个文件）。走满这么多步后，这一轮就停下。</translation>
    </message>
    <message>
        <source>&amp;Steps per round</source>
        <translation>每轮的步数(&amp;S)</translation>
    </message>
    <message>
        <source>A step is one thing the AI does, such as reading or writing a file; a round stops after this many.</source>
        <translation>一步就是 AI 做的一件事，比如读或写一个文件；达到这个步数后，这一轮就会停止。</translation>
    </message>
    <message>
        <source>Rounds without progress</source>
        <translation>没有进展的轮数</translation>
    </message>
    <message>
        <source>The run stops and asks you when this many rounds in a row tick off no task.</source>
        <translation>连续这么多轮都没完成任何任务时，运行会停下来问你。</translation>
    </message>
    <message>
        <source>Rounds without &amp;progress</source>
        <translation>没有进展的轮数(&amp;P)</translation>
    </message>
    <message>
        <source>When this many rounds in a row finish no task, the run stops so it does not go round in circles.</source>
        <translation>如果连续这么多轮都没有完成任何任务，运行就会停止，免得原地打转。</translation>
    </message>
    <message>
        <source>Stop a run when it has cost</source>
        <translation>花费达到以下金额时停止运行</translation>
    </message>
    <message>
        <source>What the AI company charges for one run, in US dollars, as Harness Desk counts it. The Demo and local engines cost nothing.</source>
        <translation>AI 公司对一次运行收取的费用，以美元计，按 Harness Desk 的统计。演示引擎和本机引擎不花钱。</translation>
    </message>
    <message>
        <source>Demo, language and look</source>
        <translation>演示、语言和外观</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Light or dark, or as the system is set. It changes as soon as you save.</source>
        <translation>浅色或深色，或跟随系统设置。保存后立即生效。</translation>
    </message>
    <message>
        <source>Look</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Loo&amp;k</source>
        <translation>外观(&amp;K)</translation>
    </message>
    <message>
        <source>Fast</source>
        <translation>快</translation>
    </message>
    <message>
        <source>&amp;Budget per run</source>
        <translation>每次运行的预算(&amp;B)</translation>
    </message>
    <message>
        <source>Claude and OpenAI charge for each run; the Demo and local engines are free.</source>
        <translation>Claude 和 OpenAI 每次运行都会收费；演示引擎和本地引擎免费。</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Slow</source>
        <translation>慢</translation>
    </message>
    <message>
        <source>Very slow, to follow every step</source>
        <translation>很慢，方便看清每一步</translation>
    </message>
    <message>
        <source>%1 (%2 s a step)</source>
        <translation>%1（每步 %2 秒）</translation>
    </message>
    <message>
        <source>%1 s a step</source>
        <translation>每步 %1 秒</translation>
    </message>
    <message>
        <source>How fast the Demo engine works, so you can watch what a run looks like.</source>
        <translation>演示引擎的速度，方便你看清一次运行是什么样子。</translation>
    </message>
    <message>
        <source>Demo engine speed</source>
        <translation>演示引擎的速度</translation>
    </message>
    <message>
        <source>&amp;Demo engine speed</source>
        <translation>演示引擎的速度(&amp;D)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language of the window. It changes the next time Harness Desk starts.</source>
        <translation>窗口使用的语言。下次打开 Harness Desk 时生效。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>A new language shows the next time Harness Desk starts.</source>
        <translation>新的语言会在下次打开 Harness Desk 时生效。</translation>
    </message>
</context>
<context>
    <name>SettingsFlow</name>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>En&amp;gine settings…</source>
        <translation>AI 引擎设置(&amp;G)…</translation>
    </message>
    <message>
        <source>Engine settings…</source>
        <translation>AI 引擎设置…</translation>
    </message>
    <message>
        <source>Engine settings: your API key, the local server&apos;s address, the model, and a connection test.</source>
        <translation>AI 引擎设置：你的 API 密钥、本机服务地址、模型，以及连接测试。</translation>
    </message>
    <message>
        <source>Your settings could not be saved: %1</source>
        <translation>你的设置没能保存：%1</translation>
    </message>
    <message>
        <source>The new language shows the next time you start Harness Desk.</source>
        <translation>新的语言会在下次打开 Harness Desk 时生效。</translation>
    </message>
</context>
<context>
    <name>SourcesView</name>
    <message>
        <source>Sources this round looked up</source>
        <translation>这一轮查阅的来源</translation>
    </message>
    <message>
        <source>Tab moves from link to link; Enter opens the page in your web browser</source>
        <translation>按 Tab 在链接之间移动；按 Enter 在网页浏览器里打开该网页</translation>
    </message>
    <message>
        <source>Each page&apos;s link opens in your web browser</source>
        <translation>每个网页的链接都会在你的网页浏览器里打开</translation>
    </message>
</context>
<context>
    <name>StatusBlock</name>
    <message>
        <source>Engine settings…</source>
        <translation>AI 引擎设置…</translation>
    </message>
    <message>
        <source>Opens the settings of the engine that stopped the run</source>
        <translation>打开让这次运行停下的 AI 引擎的设置</translation>
    </message>
    <message>
        <source>Your API key, the model and the local server&apos;s address, with a connection test.</source>
        <translation>你的 API 密钥、模型和本机服务器的地址，还可以测试连接。</translation>
    </message>
    <message>
        <source>Choose an AI engine…</source>
        <translation>选择 AI 引擎…</translation>
    </message>
    <message>
        <source>Opens the engine list</source>
        <translation>打开引擎列表</translation>
    </message>
    <message>
        <source>What went wrong or was wasteful in this run, and a line you can add to AGENTS.md, the standing instructions the AI reads</source>
        <translation>这次运行中出错或白费功夫的地方，以及一句可以加到 AGENTS.md（AI 会读的长期指示）里的话</translation>
    </message>
    <message>
        <source>How many tasks on the list are checked.</source>
        <translation>清单上已勾选的任务数量。</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>What the run is doing right now</source>
        <translation>运行此刻在做什么</translation>
    </message>
    <message>
        <source>What the run is doing</source>
        <translation>运行在做什么</translation>
    </message>
</context>
<context>
    <name>TaskDetailsPanel</name>
    <message>
        <source>You decide this one (the run asks you)</source>
        <translation>这件事由你来决定（运行会停下来问你）</translation>
    </message>
    <message>
        <source>The AI stops at this task and asks you, instead of doing it itself. In TASKS.md such a task is marked HUMAN.</source>
        <translation>AI 做到这个任务时会停下来问你，而不是自己去做。在 TASKS.md 里，这样的任务标有 HUMAN。</translation>
    </message>
    <message>
        <source>This task may look things up on the web</source>
        <translation>这个任务可以上网查资料</translation>
    </message>
    <message>
        <source>The AI service may search the web and read pages for this task. Searches cost money and count in the budget; every page used is shown with the round.</source>
        <translation>AI 服务可以为这个任务上网搜索、阅读网页。搜索要花钱，计入预算；用到的每个网页都会和这一轮一起列出。</translation>
    </message>
    <message>
        <source>Done when</source>
        <translation>完成标准</translation>
    </message>
    <message>
        <source>One check per line, e.g. overview.md lists every file</source>
        <translation>每行一条标准，例如：overview.md 列出了所有文件</translation>
    </message>
    <message>
        <source>How to tell this task is finished, one check per line. The AI must meet each one.</source>
        <translation>怎样才算完成这个任务，每行一条。AI 必须逐条做到。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>One choice per line</source>
        <translation>每行一个选项</translation>
    </message>
    <message>
        <source>The answers you want to choose from, one per line.</source>
        <translation>你想从中挑选的答案，每行一个。</translation>
    </message>
    <message>
        <source>Details of the selected task: “%1”</source>
        <translation>所选任务的详情：“%1”</translation>
    </message>
    <message>
        <source>Select a task in the list to see its details here.</source>
        <translation>在列表中选择一个任务，这里会显示它的详情。</translation>
    </message>
    <message>
        <source>This follows the folder: its tasks may look things up (Settings, This folder). Untick it to keep this task off the web.</source>
        <translation>这里跟随文件夹的设置：它的任务可以上网查资料（设置，此文件夹）。取消勾选，这个任务就不上网。</translation>
    </message>
    <message>
        <source>This follows the folder: its tasks do not look things up (Settings, This folder). Tick it to let this task look things up.</source>
        <translation>这里跟随文件夹的设置：它的任务不上网查资料（设置，此文件夹）。勾选它，这个任务就可以上网查。</translation>
    </message>
</context>
<context>
    <name>TaskItemDelegate</name>
    <message>
        <source>◀ now</source>
        <translation>◀ 正在做</translation>
    </message>
    <message>
        <source>Decided: %1</source>
        <translation>已决定：%1</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>你的决定</translation>
    </message>
    <message>
        <source>Task text</source>
        <translation>任务内容</translation>
    </message>
    <message>
        <source>Press Enter to save, Esc to cancel.</source>
        <translation>按 Enter 保存，按 Esc 取消。</translation>
    </message>
</context>
<context>
    <name>TaskListView</name>
    <message>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Your tasks, in the order the AI does them.</source>
        <translation>你的任务，按 AI 处理的先后排列。</translation>
    </message>
</context>
<context>
    <name>TopBar</name>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Open a folder (Ctrl+O). The arrow lists recent folders. You can also drop a folder on the window.</source>
        <translation>打开一个文件夹（Ctrl+O）。点箭头可以看到最近用过的文件夹。也可以直接把文件夹拖到窗口上。</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>No folder open</source>
        <translation>还没有打开文件夹</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>文件夹：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 (not found)</source>
        <translation>%1（未找到）</translation>
    </message>
    <message>
        <source>No recent folders</source>
        <translation>没有最近打开的文件夹</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Put the deleted task back (Ctrl+Z)</source>
        <translation>把删掉的任务放回来（Ctrl+Z）</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation>隐藏这条消息</translation>
    </message>
    <message>
        <source>Task deleted: “%1”</source>
        <translation>已删除任务：“%1”</translation>
    </message>
</context>
<context>
    <name>WebGroup</name>
    <message>
        <source>Looking things up on the web</source>
        <translation>上网查资料</translation>
    </message>
    <message>
        <source>Only tasks you allow may look things up: tick “This task may look things up on the web” in a task&apos;s details. Claude and OpenAI run the searches; each costs about one US cent and counts in the budget.</source>
        <translation>只有你允许的任务才能上网查资料：在任务详情里勾选“这个任务可以上网查资料”。搜索由 Claude 和 OpenAI 执行，每次约 1 美分，计入预算。</translation>
    </message>
    <message>
        <source>Searches and pages read together. When a task has made this many in a run, its round stops.</source>
        <translation>搜索次数和读取网页数合计。一个任务在一次运行中查到这个数，这一轮就停下。</translation>
    </message>
    <message>
        <source>Web lookups per task</source>
        <translation>每个任务的上网查询次数</translation>
    </message>
    <message>
        <source>&amp;Web lookups per task</source>
        <translation>每个任务的上网查询次数(&amp;W)</translation>
    </message>
    <message>
        <source>Only these sites, e.g. gov.uk, food.gov.uk (empty: any site)</source>
        <translation>只查这些网站：填网站域名，用逗号隔开（留空：任何网站）</translation>
    </message>
    <message>
        <source>Only these sites</source>
        <translation>只查这些网站</translation>
    </message>
    <message>
        <source>&amp;Only these sites</source>
        <translation>只查这些网站(&amp;O)</translation>
    </message>
    <message>
        <source>Never these sites (Claude only; ignored when only some sites are allowed)</source>
        <translation>不查这些网站（仅限 Claude；设了“只查这些网站”时不生效）</translation>
    </message>
    <message>
        <source>Never these sites</source>
        <translation>不查这些网站</translation>
    </message>
    <message>
        <source>&amp;Never these sites</source>
        <translation>不查这些网站(&amp;N)</translation>
    </message>
    <message>
        <source>Only tasks you allow may look things up: tick “This task may look things up on the web” in a task&apos;s details, or allow every task in this folder under “This folder” below. Claude and OpenAI run the searches; each costs about one US cent and counts in the budget.</source>
        <translation>只有你允许的任务才能上网查资料：在任务详情里勾选“这个任务可以上网查资料”，或者在下面的“此文件夹”里允许这个文件夹的所有任务。搜索由 Claude 和 OpenAI 执行，每次约 1 美分，计入预算。</translation>
    </message>
    <message>
        <source>example.com, another.org</source>
        <translation>网站域名，用逗号隔开</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Put an AI to work on a folder of your files</source>
        <translation>让 AI 帮你处理一个文件夹里的文件</translation>
    </message>
    <message>
        <source>Choose a folder of your own: drafts, notes, a small website. Write what you want done as a checklist, press Run, and watch the AI work through it one task at a time. It asks you when a decision is yours, and you can see every file it changed.

Drop a folder anywhere on this window to open it.</source>
        <translation>选一个你自己的文件夹：草稿、笔记、一个小网站都可以。把想做的事写成一份任务清单，按“运行”，看 AI 一项一项地完成。遇到该由你拿主意的事，它会来问你；它改过的每个文件，你都看得到。

把文件夹拖到窗口任意位置，就能打开它。</translation>
    </message>
    <message>
        <source>Open a folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Try the demo first (a bakery&apos;s website, no AI needed)</source>
        <translation>先试试演示（一家面包房的网站，不需要 AI）</translation>
    </message>
    <message>
        <source>Recent folders</source>
        <translation>最近打开的文件夹</translation>
    </message>
    <message>
        <source>%1 (not found)</source>
        <translation>%1（未找到）</translation>
    </message>
    <message>
        <source>Open %1 (not found)</source>
        <translation>打开 %1（未找到）</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Remove from the list</source>
        <translation>从列表中移除</translation>
    </message>
    <message>
        <source>Remove %1 from the recent folders</source>
        <translation>把 %1 从最近打开的文件夹中移除</translation>
    </message>
</context>
<context>
    <name>Wording</name>
    <message>
        <source>A round is one attempt at one task, with a fresh start: the AI reads the task, works on it, and ends the round by finishing, asking you, or giving up.</source>
        <translation>一“轮”是对一个任务从头开始的一次尝试：AI 读任务、动手做，最后以完成、向你提问或放弃来结束这一轮。</translation>
    </message>
    <message>
        <source>A step is one turn of the AI inside a round: it answers once and its file actions are carried out. Each round has a limit on steps, so it never runs on forever.</source>
        <translation>一“步”是 AI 在一轮里的一次行动：它回复一次，它要做的文件操作随即执行。每一轮的步数都有上限，所以不会没完没了地做下去。</translation>
    </message>
    <message>
        <source>The engine is the AI service that does the work: Demo (offline, no AI, free), Claude, OpenAI, or a local model on this computer.</source>
        <translation>AI 引擎就是实际完成工作的 AI 服务：演示（离线、不用 AI、免费）、Claude、OpenAI，或者这台电脑上的本地模型。</translation>
    </message>
</context>
<context>
    <name>WorkspacePage</name>
    <message>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>The list of what you want done, saved as TASKS.md in the folder. The AI works through it from the top.</source>
        <translation>你想完成的事情清单，保存在文件夹里的 TASKS.md。AI 从上往下逐项处理。</translation>
    </message>
    <message>
        <source>Rounds, newest first</source>
        <translation>运行记录（最新在上）</translation>
    </message>
    <message>
        <source>H&amp;istory:</source>
        <translation>历史记录(&amp;I)：</translation>
    </message>
</context>
</TS>

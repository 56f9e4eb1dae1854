/**
 * The runtime's event loops: the threads that run the busy-poll duty cycles and the reactive work of the
 * connections pinned to them, how they idle and wake, how other threads hand them work, and the counters they keep.
 * The protocol work itself (polling completion queues, moving frames, credits) lives in {@code internal.protocol}.
 *
 * <h2>Event loops</h2>
 * {@link io.rdmareactive.internal.driver.EventLoop} is an Agrona {@link org.agrona.concurrent.Agent}: every duty
 * cycle it runs the tasks other threads handed over, every connection's protocol duty cycle
 * ({@code ProtocolConnection.doWork}, during which the reactive layer drains the streams that became active, on this
 * thread), the graceful closes that are due, and, on the first loop, the device's connection events.
 * {@link io.rdmareactive.internal.driver.EventLoopGroup} starts a runtime's loops, one Agrona
 * {@link org.agrona.concurrent.AgentRunner} thread each ({@code rdma-loop-<runtime>-<i>}), or none in invoker mode
 * (the application drives them), pins new connections to them in turn, routes device events to the owning loop,
 * and stops them, each closing its connections on its own thread.
 *
 * <h2>One way in</h2>
 * Other threads reach a loop through its one bounded many-to-one task queue ({@code EventLoop.execute}, or
 * {@code tryExecute} for work an application asked for, refused before the data path's room shrinks); the data path
 * hands over only preallocated tasks. A thread that commits to a send ring does not queue anything: it tells the
 * loop ({@code notifyWork}), which wakes it only if it said it sleeps.
 *
 * <h2>Errors</h2>
 * An exception from a task or a duty cycle is counted in the {@code errors} counter, logged (the 1st, 2nd, 4th, 8th
 * ...), and the loop keeps running, as in Agrona's {@code AgentRunner}.
 *
 * <h2>Idling</h2>
 * {@link io.rdmareactive.internal.driver.IdleStrategies} turns configuration names ({@code busy-spin},
 * {@code yielding}, {@code backoff[:...]}, {@code sleeping[:...]}, {@code no-op}) into Agrona idle strategies and
 * documents the default: busy-spin with 4 or more available processors, backoff below that, because spinning threads
 * on a 2-core machine were measured to starve each other (8&nbsp;ms p50 against 27–30&nbsp;µs).
 * Tests always back off. Their periods, like every length of time in a setting or a tool (the counters tool's watch
 * period, the perf comparison's options), are written as {@link io.rdmareactive.internal.driver.Durations} reads
 * them.
 *
 * <h2>Counters</h2>
 * {@link io.rdmareactive.internal.driver.DriverCounters} keeps Agrona counters (messages and bytes each way,
 * back-pressure events, credit stalls, errors, and per-connection counters made and freed on demand) in a
 * memory-mapped file {@code <directory>/<name>.counters}, mode 0600, laid out like Aeron's CnC file
 * ({@link io.rdmareactive.internal.driver.CountersLayout}); another process reads it with
 * {@link io.rdmareactive.internal.driver.CountersReaderTool}. Counting allocates nothing. The memory must not be
 * touched after it is unmapped (that crashes the JVM), so a runtime closes its counters only once every loop
 * thread has stopped.
 *
 * <p>This package sees the JDK, Agrona, {@code io.rdmareactive.spi}, {@code io.rdmareactive.ring} and (later)
 * {@code io.rdmareactive.internal.protocol}; never a provider, the reactive layer or Reactor (the API passes in the
 * factory of its loop threads). Its classes are public because the reactive layer and the API, in other packages,
 * start and use the loops; they are not API.
 */
package io.rdmareactive.internal.driver;

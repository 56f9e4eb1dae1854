/**
 * The driver's runtime: the threads that run the busy-poll duty cycles, how they idle, how application threads hand
 * them work, and the counters they keep. The protocol work itself (polling completion queues, moving frames,
 * credits) lives in {@code internal.protocol} and arrives here as Agrona {@link org.agrona.concurrent.Agent}s.
 *
 * <h2>The connections' duty cycle</h2>
 * {@link io.rdmareactive.internal.driver.ConnectionDriverAgent} is the agent every server and client runtime runs:
 * each duty cycle it runs queued commands (adding connections, closing them once everything they committed was sent),
 * every connection's protocol duty cycle ({@code ProtocolConnection.doWork}) and hands the device's connection events
 * (disconnects, dead peers) to their connections.
 *
 * <h2>Running agents</h2>
 * {@link io.rdmareactive.internal.driver.DriverRunner} runs agents in a
 * {@link io.rdmareactive.internal.driver.ThreadingMode}: {@code DEDICATED} (a thread per agent,
 * {@code rdma-driver-<name>-<role>}), {@code SHARED} (one thread {@code rdma-driver-<name>} over all of them; the
 * default, as DESIGN.md asks for one driver agent per node) or {@code INVOKER} (no thread; the application calls
 * {@code invoke()} and so sends and polls with no hop between threads). Threads are daemons, built on Agrona's
 * {@code AgentRunner}; {@code close()} waits for each a bounded time and closes every agent exactly once.
 *
 * <h2>Commands, and the rule that user code never runs here</h2>
 * Application threads reach the driver through a bounded many-to-one queue
 * ({@link io.rdmareactive.internal.driver.CommandAgent}): {@code offer} never blocks and never grows the queue, and
 * returns {@code false} when it is full. Commands run on the first agent's thread, a bounded number per duty cycle.
 * Commands are internal driver work; user code (subscribers, codecs, handlers) never runs on a driver thread, so a
 * slow or blocking user callback can never stall the polling of every connection.
 *
 * <h2>Errors</h2>
 * An exception from an agent is counted in the {@code errors} counter, logged (the 1st, 2nd, 4th, 8th ...), and
 * the agent keeps running, as in Agrona's {@code AgentRunner}. An {@link java.lang.Error}, an exception from
 * {@code onStart} or an {@code AgentTerminationException} ends that thread instead; its agents are still closed by
 * {@code close()}.
 *
 * <h2>Idling</h2>
 * {@link io.rdmareactive.internal.driver.IdleStrategies} turns configuration names ({@code busy-spin},
 * {@code yielding}, {@code backoff[:...]}, {@code sleeping[:...]}, {@code no-op}) into Agrona idle strategies and
 * documents the default: busy-spin with 4 or more available processors, backoff below that, because DESIGN.md
 * measured that spinning threads on a 2-core machine starve each other (8&nbsp;ms p50 against 27–30&nbsp;µs).
 * Tests always back off.
 *
 * <h2>Counters</h2>
 * {@link io.rdmareactive.internal.driver.DriverCounters} keeps Agrona counters (messages and bytes each way,
 * back-pressure events, credit stalls, errors, and per-connection counters made and freed on demand) in a
 * memory-mapped file {@code <directory>/<name>.counters}, mode 0600, laid out like Aeron's CnC file
 * ({@link io.rdmareactive.internal.driver.CountersLayout}); another process reads it with
 * {@link io.rdmareactive.internal.driver.CountersReaderTool}. Counting allocates nothing. The memory must not be
 * touched after it is unmapped (that crashes the JVM), so it is reference counted: the runner holds a lease while
 * its threads may count.
 *
 * <p>This package sees the JDK, Agrona, {@code io.rdmareactive.spi}, {@code io.rdmareactive.ring} and (later)
 * {@code io.rdmareactive.internal.protocol}; never a provider, the reactive layer or Reactor. Its classes are public
 * because the reactive layer and the API, in other packages, start and configure the driver; they are not API.
 */
package io.rdmareactive.internal.driver;

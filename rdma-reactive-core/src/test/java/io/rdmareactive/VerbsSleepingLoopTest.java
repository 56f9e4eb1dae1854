package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On real verbs (the Soft-RoCE guest): a client and a server, each on a runtime whose one event loop sleeps for a
 * minute whenever it has nothing to do. After each pause, a call is answered at once: the request's hand-over wakes
 * the client's loop, which posts it; the request's arrival is a completion on the server's sleeping loop, and the
 * answer's arrival one on the client's, which has gone back to sleep; each completion wakes its loop (the completion
 * channel its queues were armed on before it slept). Without that, each waited for the minute's sleep to end, longer
 * than the call's deadline here.
 */
@OnVerbs
class VerbsSleepingLoopTest {

    /** Verbs ({@link OnVerbs}). */
    private final TestTransport transport;

    @ShmTestDirectory
    private Path directory;
    private DisposableServer server;
    private Connection connection;

    VerbsSleepingLoopTest(final TestTransport transport) {
        this.transport = transport;
    }

    @BeforeEach
    void start() {
        final String address = transport.uniqueAddress("sleeping");
        // a runtime each, as two processes would have: what one loop posts lands in the other's completion queue
        // while that loop sleeps (on one loop, Soft-RoCE completes a post before the loop could go to sleep)
        server = transport.server(directory, address).runOn(sleepingRuntime())
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase),
                Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        connection = transport.client(directory, address).runOn(sleepingRuntime()).connect()
            .block(ShmTestSupport.BOUND);
    }

    /** A runtime of one loop that sleeps a minute whenever it has nothing to do, released with its last user. */
    private RdmaRuntime sleepingRuntime() {
        final RdmaRuntime runtime = RdmaRuntime.builder().provider("verbs").directory(directory).loops(1)
            .build(() -> new org.agrona.concurrent.SleepingIdleStrategy(java.util.concurrent.TimeUnit.MINUTES.toNanos(1)),
                "sleeping a minute");
        runtimes.add(runtime);
        return runtime;
    }

    private final java.util.List<RdmaRuntime> runtimes = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        }
        if (server != null) {
            server.dispose();
        }
        runtimes.forEach(RdmaRuntime::dispose); // each stops once its last user is gone
    }

    @Test
    void aCallAfterAPauseIsAnsweredWithoutWaitingForTheLoopsSleepToEnd() {
        for (int i = 0; i < 5; i++) {
            // both loops have gone to sleep for a minute: parked, or asleep on their doorbell page, for a while
            org.awaitility.Awaitility.await("round " + i + ": both runtimes' loops asleep")
                .atMost(ShmTestSupport.BOUND).pollInterval(Duration.ofMillis(5)).during(Duration.ofMillis(50))
                .until(() -> runtimes.stream().allMatch(runtime -> runtime.loops.asleep()));
            assertThat(connection.requestResponse("call " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(Duration.ofSeconds(20))).isEqualTo("CALL " + i);
        }
    }
}

package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The API between two JVMs over the shared-memory provider: a peer killed with SIGKILL mid-stream, and a million
 * checksummed messages of mixed sizes on three connections at once. The other JVM runs {@link ChildPeer}.
 */
@ExtendWith(TestTransportResolver.class)
class TwoProcessTest {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    static final int RING_CAPACITY = 64 * 1024;
    private static final Duration CHILD_BOUND = Duration.ofMinutes(3);

    @ShmTestDirectory
    private Path directory;
    private ChildJvm child;

    TwoProcessTest(final TestTransport transport) {
        this.transport = transport;
    }

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.kill();
        }
    }

    @Test
    void aPeerKilledMidStreamEndsTheFluxWithAConnectionErrorThatNamesTheCause() throws Exception {
        final String address = addressServedByTheChild("victim");
        child = startChild("stream-forever", directory.toString(), address);
        child.awaitLine(ChildPeer.LISTENING);
        final Connection connection = transport.client(directory, address)
            .liveness(ChildPeer.KEEPALIVE, ChildPeer.LIVENESS_TIMEOUT).connect().block(ShmTestSupport.BOUND);

        final AtomicLong received = new AtomicLong();
        final CountDownLatch someArrived = new CountDownLatch(1_000);
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        connection.inbound().receive(Codecs.UTF8_STRING).subscribe(
            value -> {
                if (!value.equals(Long.toString(received.getAndIncrement()))) {
                    ended.completeExceptionally(new AssertionError("message " + (received.get() - 1) + " was "
                        + value));
                }
                someArrived.countDown();
            },
            ended::complete,
            () -> ended.complete(null));
        assertThat(someArrived.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS))
            .as("1000 messages arrived from the child; it said %s", child.output()).isTrue();

        child.kill(); // SIGKILL, mid-stream

        final Throwable error = ended.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(error).as("how the Flux ended after %d messages", received.get())
            .isInstanceOf(RdmaConnectionException.class);
        assertThat(error.getMessage()).as("the error names the cause")
            .containsIgnoringCase("peer")
            .containsPattern("(?i)went away|was lost|no word from the peer|killed|exited");
        System.out.printf("killed peer: %d messages, then: %s%n", received.get(), error.getMessage());

        // the connection disposed itself: its memory and threads are gone
        final Throwable closed = connection.onDispose().then(Mono.<Throwable>empty())
            .onErrorResume(Mono::just).block(ShmTestSupport.BOUND);
        assertThat(closed).as("onDispose after the peer died").isInstanceOf(RdmaConnectionException.class);
        Awaitility.await().atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.runtimeThreads(address)).as("runtime threads of the client").isEmpty());
    }

    @Test
    void aPeerKilledRunsTheDisconnectedHookOnceWithTheConnectionThatNamedThePeer() throws Exception {
        final String address = addressServedByTheChild("hooked");
        child = startChild("stream-forever", directory.toString(), address);
        child.awaitLine(ChildPeer.LISTENING);
        final List<Connection> disconnected = Collections.synchronizedList(new ArrayList<>());
        final Connection connection = transport.client(directory, address)
            .liveness(ChildPeer.KEEPALIVE, ChildPeer.LIVENESS_TIMEOUT)
            .doOnDisconnected(disconnected::add)
            .connectNow();
        if (transport.isVerbs()) {
            assertThat(connection.peer()).as("who the peer is on verbs: the address connected to").isEqualTo(address);
        } else {
            assertThat(connection.peer()).as("who the peer is: the child's listener and device")
                .startsWith("listener '" + address + "', device " + child.pid() + "-");
        }

        child.kill(); // SIGKILL: the connection ends without a word from the peer

        Awaitility.await().atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(disconnected).as("the hook heard that the peer died").hasSize(1));
        assertThat(disconnected.get(0)).isSameAs(connection);
        assertThat(connection.isDisposed()).isTrue();
        connection.dispose(); // disposing of it again runs no hook again
        Thread.sleep(200);
        assertThat(disconnected).as("once").hasSize(1);
    }

    /**
     * What a close reports about messages the API called sent, with the peer stopped (SIGSTOP, as a long GC pause
     * would) while they were sent and the connection closed, and for longer than its liveness timeout: every one
     * reaches the peer's subscriber once it runs again, or the close says it could not deliver them.
     */
    @Test
    void messagesSentToAStoppedPeerBeforeACloseArriveWhenItRunsAgain() throws Exception {
        final String address = addressServedByTheChild("stopped");
        child = startChild("count-server", directory.toString(), address);
        child.awaitLine(ChildPeer.LISTENING);
        final Connection connection = transport.client(directory, address)
            .liveness(ChildPeer.KEEPALIVE, ChildPeer.LIVENESS_TIMEOUT).connect().block(ShmTestSupport.BOUND);
        final Sinks.Many<String> messages = Sinks.many().unicast().onBackpressureBuffer();
        final CompletableFuture<Void> sent = connection.outbound().send(messages.asFlux(), Codecs.UTF8_STRING)
            .toFuture();
        messages.tryEmitNext("first").orThrow();
        child.awaitLine("GOT first");

        child.signal("STOP");
        try {
            for (int i = 0; i < 100; i++) {
                messages.tryEmitNext("m" + i).orThrow();
            }
            messages.tryEmitComplete().orThrow();
            sent.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS); // every message and the end committed
            connection.dispose();
            final Throwable closed = connection.onDispose().then(Mono.<Throwable>empty())
                .onErrorResume(Mono::just).block(ShmTestSupport.BOUND);
            assertThat(closed).as("the close: everything sent is in the peer's ring").isNull();
            Thread.sleep(ChildPeer.LIVENESS_TIMEOUT.toMillis() + 1_000); // stopped past its liveness timeout
        } finally {
            child.signal("CONT");
        }
        child.awaitLine("ENDED");
        assertThat(child.output()).as("what the peer received").contains("GOT m0", "GOT m99")
            .contains("ENDED 101 ");
    }

    @Test
    void aMillionChecksummedMessagesOfMixedSizesCrossThreeConnectionsOnceEachAndInOrder() throws Exception {
        final int connections = 3;
        final long perConnection = transport.scaled(333_334, 2_000);
        final String address = addressServedHere("million");
        final List<CheckedMessages.Checker> checkers = Collections.synchronizedList(new ArrayList<>());
        final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch completed = new CountDownLatch(connections);
        final DisposableServer server = transport.server(directory, address)
            .maxMessageLength(CheckedMessages.MAX_MESSAGE)
            .handle((in, out) -> {
                final CheckedMessages.Checker checker = new CheckedMessages.Checker();
                checkers.add(checker);
                return in.receiveViews().doOnNext(checker::check)
                    .doOnError(errors::add)
                    .doOnComplete(completed::countDown)
                    .then();
            })
            .bind().block(ShmTestSupport.BOUND);
        try {
            final long start = System.nanoTime();
            child = startChild("send-checked", directory.toString(), address, String.valueOf(connections),
                String.valueOf(perConnection));
            final boolean allCompleted = awaitOrChildFailure(completed);
            final double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(errors).as("errors of the receiving Fluxes; the child said %s", child.output()).isEmpty();
            assertThat(allCompleted).as("every connection's stream completed; the child said %s", child.output())
                .isTrue();
            assertThat(child.awaitExit()).as("the child's exit code; it said %s", child.output()).isZero();

            assertThat(checkers).hasSize(connections);
            long total = 0;
            long bytes = 0;
            long fragmented = 0;
            for (final CheckedMessages.Checker checker : checkers) {
                assertThat(checker.firstProblem()).as("the first problem of connection %d (of %d problems)",
                    checker.connection(), checker.problems()).isNull();
                assertThat(checker.received()).as("messages of connection %d", checker.connection())
                    .isEqualTo(perConnection);
                total += checker.received();
                bytes += checker.bytes();
                fragmented += checker.fragmented();
            }
            assertThat(checkers.stream().map(CheckedMessages.Checker::connection).sorted().toList())
                .as("connection ids").containsExactly(1, 2, 3);
            assertThat(total).isEqualTo(connections * perConnection);
            assertThat(fragmented).as("messages larger than a frame, sent as fragments").isPositive();
            System.out.printf("two processes: %d messages (%d fragmented), %.1f MiB on %d connections in %.1f s%n",
                total, fragmented, bytes / 1048576.0, connections, seconds);
        } finally {
            server.dispose();
        }
    }

    /** @return an address for a server the child runs (on verbs across two nodes, the child's node's) */
    protected String addressServedByTheChild(final String prefix) {
        return transport.uniqueAddress(prefix);
    }

    /** @return an address for a server this JVM runs (on verbs across two nodes, this node's) */
    protected String addressServedHere(final String prefix) {
        return transport.uniqueAddress(prefix);
    }

    /** @return JVM options of the child beyond the usual ones (across two nodes, the device of its node) */
    protected List<String> childJvmOptions() {
        return List.of();
    }

    private boolean awaitOrChildFailure(final CountDownLatch latch) throws InterruptedException {
        final long deadline = System.nanoTime() + CHILD_BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            if (latch.await(1, TimeUnit.SECONDS)) {
                return true;
            }
            if (!child.isAlive() && child.exitValue() != 0) {
                return false; // it failed; what it said is in the assertion message
            }
        }
        return false;
    }

    /** Starts {@link ChildPeer} with {@code arguments}; its output is kept, for the failure messages. */
    private ChildJvm startChild(final String... arguments) {
        final List<String> options = new ArrayList<>(List.of("-Xmx256m", "-Drdma.idle=backoff"));
        options.addAll(childJvmOptions());
        options.addAll(transport.childJvmOptions());
        return ChildJvmLauncher.of(ChildPeer.class).jvmOptions(options).args(arguments).bound(CHILD_BOUND).start();
    }
}

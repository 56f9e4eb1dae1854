package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What ending things leaves behind, and what it does to the other side: disposing a connection, cancelling an
 * inbound Flux, disposing a server. Afterwards the shared-memory directory is as it was before (empty, once the server
 * is gone too), the runtime's threads ({@code rdma-loop-*}, {@code rdma-accept-*}, {@code rdma-shm-cm-*}) have
 * ended once nothing uses the runtime any more, and the remote sender has stopped. A client and a server of one
 * process share the process's runtime: one device, one group of event loops. Ending a connection right after a send
 * completed must not lose what was sent.
 *
 * <p>Every wait is bounded and generous; nothing asserts how long anything took.
 */
class DisposalTest {

    @ShmTestDirectory
    private Path directory;

    /** Loop threads of other tests' runtimes (each test's directory gets a runtime of its own). */
    private List<String> loopsBefore;

    @BeforeEach
    void noteTheLoopsAlreadyRunning() {
        loopsBefore = ShmTestSupport.runtimeThreads("rdma-loop-");
    }

    /** @return the loop threads started since this test began: those of its runtime */
    private List<String> newLoops() {
        return ShmTestSupport.runtimeThreads("rdma-loop-").stream().filter(name -> !loopsBefore.contains(name))
            .toList();
    }

    private static Flux<String> countingForever(final AtomicLong requested, final AtomicBoolean cancelled) {
        return Flux.<String, Long>generate(() -> 0L, (next, sink) -> {
            sink.next(Long.toString(next));
            return next + 1;
        }).doOnRequest(n -> requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b))
            .doOnCancel(() -> cancelled.set(true));
    }

    private static Throwable errorOf(final Mono<?> mono) {
        return mono.then(Mono.<Throwable>empty()).onErrorResume(Mono::just).block(ShmTestSupport.BOUND);
    }

    private void awaitFiles(final List<String> expected, final String what) {
        Awaitility.await(what).atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.files(directory)).as(what).isEqualTo(expected));
    }

    private static void awaitNoRuntimeThreads(final String marker) {
        Awaitility.await("threads of " + marker + " to end").atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.runtimeThreads(marker)).as("runtime threads of %s", marker).isEmpty());
    }

    private static void awaitNoThreads(final List<String> names) {
        Awaitility.await("threads " + names + " to end").atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.runtimeThreads("rdma-")).as("runtime threads").doesNotContainAnyElementsOf(names));
    }

    private List<String> otherDevices(final List<String> known) {
        return ShmTestSupport.deviceIds(directory).stream().filter(id -> !known.contains(id)).toList();
    }

    @Test
    void disposingAClientConnectionFreesItsFilesAndThreadsOnBothSidesAndEndsItsStreams() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("dispose-client");
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        final List<String> serverFiles = ShmTestSupport.files(directory);
        final List<String> serverDevices = ShmTestSupport.deviceIds(directory);
        assertThat(serverDevices).as("the server's shm device").hasSize(1);

        final List<String> loops = newLoops();
        assertThat(loops).as("the process runtime's event loops").hasSize(RdmaRuntime.defaultLoops());

        final Connection connection = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        assertThat(otherDevices(serverDevices)).as("the client runs on the server's runtime and device").isEmpty();
        assertThat(newLoops()).as("no thread more for the connection").isEqualTo(loops);
        assertThat(ShmTestSupport.runtimeThreads(serverDevices.get(0))).as("the device's connection manager")
            .hasSize(1);

        final CountDownLatch echoed = new CountDownLatch(100);
        final CompletableFuture<Throwable> inboundEnded = new CompletableFuture<>();
        connection.inbound().receive(Codecs.UTF8_STRING)
            .subscribe(value -> echoed.countDown(), inboundEnded::complete, () -> inboundEnded.complete(null));
        final AtomicBoolean senderCancelled = new AtomicBoolean();
        final CompletableFuture<Throwable> sendEnded = new CompletableFuture<>();
        connection.outbound().send(Flux.range(0, 100).map(String::valueOf).concatWith(Flux.never())
                .doOnCancel(() -> senderCancelled.set(true)), Codecs.UTF8_STRING)
            .subscribe(null, sendEnded::complete, () -> sendEnded.complete(null));
        assertThat(echoed.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS)).as("100 echoes").isTrue();

        connection.dispose();

        assertThat(errorOf(connection.onDispose())).as("onDispose of a connection disposed by its user").isNull();
        assertThat(inboundEnded.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS))
            .as("how the inbound Flux ended").isInstanceOf(RdmaConnectionException.class);
        assertThat(sendEnded.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS))
            .as("how the running send ended").isInstanceOf(RdmaConnectionException.class);
        assertThat(senderCancelled).as("the send's publisher was cancelled").isTrue();
        awaitFiles(serverFiles, "the directory holds only the server's files again");

        server.dispose();
        assertThat(errorOf(server.onDispose())).as("the server's onDispose").isNull();
        awaitFiles(List.of(), "the directory is empty once the server is disposed");
        awaitNoRuntimeThreads(address);
        awaitNoRuntimeThreads(serverDevices.get(0));
        awaitNoThreads(loops);
    }

    @Test
    void cancellingTheInboundFluxStopsTheRemoteSenderAndFreesTheConnection() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("cancel");
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean producerCancelled = new AtomicBoolean();
        final CompletableFuture<Throwable> sendEnded = new CompletableFuture<>();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(countingForever(requested, producerCancelled), Codecs.UTF8_STRING)
                .doOnSuccess(nothing -> sendEnded.complete(null)).doOnError(sendEnded::complete))
            .bind().block(ShmTestSupport.BOUND);
        final List<String> serverFiles = ShmTestSupport.files(directory);
        final List<String> serverDevices = ShmTestSupport.deviceIds(directory);
        final Connection connection = ShmTestSupport.client(directory, address).prefetch(64)
            .connect().block(ShmTestSupport.BOUND);
        final List<String> loops = newLoops();

        final List<String> taken = connection.inbound().receive(Codecs.UTF8_STRING).take(100).collectList()
            .block(ShmTestSupport.BOUND);
        assertThat(taken).hasSize(100).startsWith("0", "1", "2").endsWith("99");

        assertThat(sendEnded.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS))
            .as("the remote send completes quietly when its subscriber cancels").isNull();
        assertThat(producerCancelled).as("the remote producer was cancelled").isTrue();
        final long requestedAtEnd = requested.get();
        assertThat(requestedAtEnd).as("what the remote producer was asked for in all")
            .isLessThanOrEqualTo(100 + 64 + 64);

        // the server ends its connection when its handler ends; the client's follows
        errorOf(connection.onDispose());
        awaitFiles(serverFiles, "the directory holds only the server's files again");
        assertThat(requested.get()).as("the producer is asked for nothing more").isEqualTo(requestedAtEnd);

        server.dispose();
        awaitFiles(List.of(), "the directory is empty once the server is disposed");
        awaitNoRuntimeThreads(address);
        awaitNoRuntimeThreads(serverDevices.get(0));
        awaitNoThreads(loops);
    }

    @Test
    void disposingTheServerEndsItsClientsStreamsAndLeavesNothing() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("dispose-server");
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean producerCancelled = new AtomicBoolean();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(countingForever(requested, producerCancelled), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        final List<String> serverDevices = ShmTestSupport.deviceIds(directory);
        final List<Connection> connections = new ArrayList<>();
        final List<CompletableFuture<Throwable>> ends = new ArrayList<>();
        final CountDownLatch arriving = new CountDownLatch(2 * 500);
        for (int i = 0; i < 2; i++) {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            final CompletableFuture<Throwable> ended = new CompletableFuture<>();
            final AtomicLong count = new AtomicLong();
            connection.inbound().receive(Codecs.UTF8_STRING).subscribe(
                value -> {
                    if (count.incrementAndGet() <= 500) {
                        arriving.countDown();
                    }
                },
                ended::complete, () -> ended.complete(null));
            connections.add(connection);
            ends.add(ended);
        }
        final List<String> allDevices = ShmTestSupport.deviceIds(directory);
        assertThat(allDevices).as("one device: the process's runtime serves the server and its clients")
            .isEqualTo(serverDevices);
        final List<String> loops = newLoops();
        assertThat(arriving.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS)).as("both streams flow").isTrue();

        server.dispose();

        for (final CompletableFuture<Throwable> ended : ends) {
            final Throwable error = ended.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(error).as("how a client's Flux ended").isInstanceOf(RdmaConnectionException.class);
            assertThat(error.getMessage()).as("it says the peer ended the connection").containsIgnoringCase("peer");
        }
        for (final Connection connection : connections) {
            // the server closed on purpose: the cut-short streams failed above, the connection itself ends cleanly
            assertThat(errorOf(connection.onDispose())).as("a client's onDispose after the server went").isNull();
        }
        assertThat(producerCancelled).as("the server's producers were cancelled").isTrue();
        for (final Connection connection : connections) {
            connection.dispose(); // a connection ended by its peer still holds the runtime until disposed
        }
        awaitFiles(List.of(), "the directory is empty");
        awaitNoRuntimeThreads(address);
        for (final String device : allDevices) {
            awaitNoRuntimeThreads(device);
        }
        awaitNoThreads(loops);
    }

    @Test
    void aServerWhoseHandlerEndsRightAfterItsSendDeliversEverythingFirst() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("send-and-go");
        final int messages = 1_000;
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(Flux.range(0, messages).map(String::valueOf), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try {
            for (int round = 0; round < 20; round++) {
                final Connection connection = ShmTestSupport.client(directory, address).connect()
                    .block(ShmTestSupport.BOUND);
                final List<String> received = new ArrayList<>();
                final Throwable error = errorOf(connection.inbound().receive(Codecs.UTF8_STRING)
                    .doOnNext(received::add).then());
                assertThat(error).as("round %d: how the Flux ended after %d of %d messages", round, received.size(),
                    messages).isNull();
                assertThat(received).as("round %d", round).hasSize(messages)
                    .isEqualTo(Flux.range(0, messages).map(String::valueOf).collectList().block());
                connection.dispose();
                errorOf(connection.onDispose());
            }
        } finally {
            server.dispose();
        }
    }

    @Test
    void aClientThatDisposesRightAfterItsSendCompletedLosesNothing() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("send-and-dispose");
        final int messages = 1_000;
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> {
                final CompletableFuture<List<String>> result = new CompletableFuture<>();
                synchronized (results) {
                    results.add(result);
                }
                return in.receive(Codecs.UTF8_STRING).collectList()
                    .doOnNext(result::complete).doOnError(result::completeExceptionally).then();
            })
            .bind().block(ShmTestSupport.BOUND);
        try {
            final List<String> expected = Flux.range(0, messages).map(String::valueOf).collectList().block();
            for (int round = 0; round < 20; round++) {
                final Connection connection = ShmTestSupport.client(directory, address).connect()
                    .block(ShmTestSupport.BOUND);
                final Throwable sendError = errorOf(connection.outbound()
                    .send(Flux.fromIterable(expected), Codecs.UTF8_STRING)
                    .then(Mono.fromRunnable(connection::dispose)));
                assertThat(sendError).as("round %d: the send", round).isNull();
                final CompletableFuture<List<String>> result;
                synchronized (results) {
                    assertThat(results).hasSize(round + 1);
                    result = results.get(round);
                }
                assertThat(result).as("round %d: what the server received", round)
                    .succeedsWithin(ShmTestSupport.BOUND).isEqualTo(expected);
            }
        } finally {
            server.dispose();
        }
    }

    @Test
    void aConnectionUsedAfterItsDisposalFailsWithAnErrorThatSaysSo() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("after-dispose");
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            connection.dispose();
            assertThat(errorOf(connection.onDispose())).as("onDispose").isNull();
            // the connection is closed: its streams end at once, with the cause
            final Throwable receiveError = errorOf(connection.inbound().receive(Codecs.UTF8_STRING).then());
            assertThat(receiveError).as("receiving").isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("ended");
            final Throwable sendError = errorOf(connection.outbound().send(Flux.just("late"), Codecs.UTF8_STRING));
            assertThat(sendError).as("sending").isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("ended");
            final Throwable requestError = errorOf(connection.requestResponse("late", Codecs.UTF8_STRING,
                Codecs.UTF8_STRING));
            assertThat(requestError).as("a request").isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("closed");
        } finally {
            server.dispose();
        }
    }
}

package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Fire-and-forget, request/response, request/stream and channel, each on streams used once per request. */
class InteractionModelsTest {

    @ShmTestDirectory
    private Path directory;
    private DisposableServer server;
    private Connection connection;
    private final ConcurrentLinkedQueue<String> fired = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() {
        server = RdmaServer.create().provider("shm").directory(directory).address("models")
            .handleStreams((kind, in, out) -> switch (kind) {
                case FIRE_AND_FORGET -> in.receive(Codecs.UTF8_STRING).doOnNext(fired::add).then();
                case REQUEST_RESPONSE -> out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase),
                    Codecs.UTF8_STRING);
                case REQUEST_STREAM -> out.send(in.receive(Codecs.UTF8_STRING).next()
                    .flatMapMany(request -> Flux.range(1, Integer.parseInt(request)).map(i -> "item " + i)),
                    Codecs.UTF8_STRING);
                case CHANNEL -> out.send(in.receive(Codecs.UTF8_STRING).map(s -> s + "!"), Codecs.UTF8_STRING);
            })
            .bind().block(Duration.ofSeconds(10));
        connection = RdmaClient.create().provider("shm").directory(directory).address("models").connect()
            .block(Duration.ofSeconds(10));
    }

    /**
     * Calls cancelled at any moment, including while their stream is being opened on the loop: each stream they took
     * comes back, and both sides stay at the same use of it, so the connection serves the next call.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = StreamKind.class, names = {"REQUEST_RESPONSE",
        "REQUEST_STREAM", "CHANNEL", "FIRE_AND_FORGET"})
    void callsCancelledWhileTheirStreamOpensLeaveEveryStreamUsable(final StreamKind kind) {
        for (int i = 0; i < 2_000; i++) {
            final reactor.core.Disposable call = switch (kind) {
                case REQUEST_RESPONSE -> connection.requestResponse("x", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe();
                case REQUEST_STREAM -> connection.requestStream("5", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe();
                case CHANNEL -> connection.requestChannel(Flux.just("a"), Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe();
                case FIRE_AND_FORGET -> connection.fireAndForget("f", Codecs.UTF8_STRING).subscribe();
            };
            call.dispose();
        }
        for (int i = 0; i < 20; i++) { // more calls than streams: each must find a stream that came back
            final int call = i;
            assertThat(connection.requestResponse("after " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .timeout(ShmTestSupport.BOUND)
                .onErrorMap(error -> new AssertionError("call " + call + " after the cancelled ones failed; "
                    + ((DefaultConnection) connection).describeStreams(), error))
                .block()).isEqualTo("AFTER " + i);
        }
        assertThat(connection.isDisposed()).isFalse();
    }

    /**
     * While every stream is busy, calls wait in a queue of {@link DefaultConnection#MAX_WAITING_REQUESTS}; a full queue
     * of calls that were then cancelled must not refuse the next live call as one too many, and the cancelled ones
     * are owed nothing: no refusal of theirs reaches Reactor's dropped-error hook (which logs each at ERROR).
     */
    @Test
    void callsCancelledWhileEveryStreamIsBusyNeitherCrowdOutTheNextNorReportDroppedErrors() {
        final List<Throwable> dropped = new java.util.concurrent.CopyOnWriteArrayList<>();
        reactor.core.publisher.Hooks.onErrorDropped(dropped::add);
        final List<reactor.core.Disposable> holding = new java.util.ArrayList<>();
        final DefaultConnection internals = (DefaultConnection) connection;
        try {
            // every stream held by a channel whose input never ends; the channels beyond them wait
            final List<Throwable> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int i = 0; i < 32; i++) {
                holding.add(connection.requestChannel(Flux.<String>never(), Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe(null, refused::add));
            }
            final int[] waiting = {-1};
            org.awaitility.Awaitility.await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> {
                final int now = waitingRequests(internals);
                final boolean settled = now > 0 && now == waiting[0];
                waiting[0] = now;
                assertThat(settled).as("the requests waiting settled: %s", internals.describeStreams()).isTrue();
            });
            final List<reactor.core.Disposable> cancelled = new java.util.ArrayList<>();
            for (int i = waiting[0]; i < DefaultConnection.MAX_WAITING_REQUESTS; i++) {
                cancelled.add(connection.requestStream("1", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe(null, refused::add));
            }
            org.awaitility.Awaitility.await().atMost(ShmTestSupport.BOUND).untilAsserted(() ->
                assertThat(waitingRequests(internals)).as(internals.describeStreams())
                    .isEqualTo(DefaultConnection.MAX_WAITING_REQUESTS));
            cancelled.forEach(reactor.core.Disposable::dispose); // a full queue of cancelled calls

            final reactor.core.publisher.Mono<List<String>> live = connection.requestStream("1", Codecs.UTF8_STRING,
                Codecs.UTF8_STRING).collectList().cache();
            live.subscribe(null, refused::add);
            org.awaitility.Awaitility.await().atMost(ShmTestSupport.BOUND).until(() ->
                !refused.isEmpty() || waitingRequests(internals) < DefaultConnection.MAX_WAITING_REQUESTS);
            assertThat(refused).as("calls refused while the queue held cancelled ones; %s",
                internals.describeStreams()).isEmpty();
            holding.forEach(reactor.core.Disposable::dispose); // the streams come back
            assertThat(live.block(ShmTestSupport.BOUND)).containsExactly("item 1");
            assertThat(dropped).as("errors dropped after their subscriber had gone").isEmpty();
        } finally {
            holding.forEach(reactor.core.Disposable::dispose);
            reactor.core.publisher.Hooks.resetOnErrorDropped();
        }
    }

    private static int waitingRequests(final DefaultConnection connection) {
        final java.util.regex.Matcher waiting = java.util.regex.Pattern.compile("(\\d+) requests waiting for a stream")
            .matcher(connection.describeStreams());
        return waiting.find() ? Integer.parseInt(waiting.group(1)) : -1;
    }

    /**
     * A stream opened for a call that had not asked for it yet and is then cancelled: nobody will use it, so the
     * loop ends the use at once and the stream comes back. The cancel comes after the open, made certain by a task
     * queued behind it on the loop.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = StreamKind.class, names = {"REQUEST_STREAM", "CHANNEL",
        "FIRE_AND_FORGET"})
    void aStreamOpenedForACallCancelledBeforeItsHandOverComesBack(final StreamKind kind) throws InterruptedException {
        final DefaultConnection client = (DefaultConnection) connection;
        for (int i = 0; i < 25; i++) { // more than the streams of this side: each must come back
            final reactor.core.publisher.BaseSubscriber<StreamChannel> call =
                new reactor.core.publisher.BaseSubscriber<>() {
                    @Override
                    protected void hookOnSubscribe(final org.reactivestreams.Subscription subscription) {
                        // asks for nothing yet
                    }

                    @Override
                    protected void hookOnNext(final StreamChannel channel) {
                        throw new AssertionError("a stream was handed over without being asked for");
                    }
                };
            new StreamOpen(client, kind).subscribe(call);
            final java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(1);
            client.onLoop(opened::countDown); // runs after the open, queued before it
            assertThat(opened.await(ShmTestSupport.BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                .isTrue();
            call.cancel();
        }
        for (int i = 0; i < 20; i++) {
            assertThat(connection.requestResponse("after " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .timeout(ShmTestSupport.BOUND)
                .onErrorMap(error -> new AssertionError(client.describeStreams(), error))
                .block()).isEqualTo("AFTER " + i);
        }
        assertThat(fired).isEmpty(); // an empty request carries no message
    }

    /**
     * A call cancelled after its stream was opened on this side but before its send started (the window a cancel from
     * another thread can hit, made certain here): the send still opens the stream before it ends it, since this side's
     * use has begun and its inbound waits for the peer's end of it. Before, the OPEN was skipped, the peer never
     * answered, and each such call kept its stream for good; more of them than there are streams, and every later call
     * waited forever.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = StreamKind.class, names = {"REQUEST_RESPONSE",
        "REQUEST_STREAM", "CHANNEL", "FIRE_AND_FORGET"})
    void aSendCancelledBeforeItStartsStillOpensAndEndsItsStream(final StreamKind kind) {
        final DefaultConnection client = (DefaultConnection) connection;
        for (int i = 0; i < 25; i++) { // more than the streams of this side: each must come back
            final reactor.core.publisher.Sinks.One<Boolean> ended = reactor.core.publisher.Sinks.one();
            final DefaultConnection.Opener opener = new DefaultConnection.Opener() {
                @Override
                public void opened(final StreamChannel channel) {
                    channel.receive(Codecs.UTF8_STRING).subscribe(ignored -> { }, ended::tryEmitError,
                        () -> ended.tryEmitValue(true));
                    channel.send(Flux.just("never sent"), Codecs.UTF8_STRING)
                        .subscribe(new reactor.core.publisher.BaseSubscriber<Void>() {
                            @Override
                            protected void hookOnSubscribe(final org.reactivestreams.Subscription subscription) {
                                subscription.cancel();
                            }
                        });
                }

                @Override
                public void refused(final Throwable error) {
                    ended.tryEmitError(error);
                }

                @Override
                public boolean isCancelled() {
                    return false;
                }
            };
            client.open(opener, () -> client.openOnLoop(kind, opener));
            assertThat(ended.asMono().block(ShmTestSupport.BOUND)).isTrue(); // the peer ended its side of the use
        }
        for (int i = 0; i < 20; i++) {
            assertThat(connection.requestResponse("after " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("AFTER " + i);
        }
        assertThat(fired).isEmpty(); // a fire-and-forget cancelled before its send carried no message
    }

    @AfterEach
    void stop() {
        connection.dispose();
        connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
        server.dispose();
    }

    @Test
    void requestResponseAnswersEachRequestAndReusesItsStreams() {
        for (int i = 0; i < 200; i++) {
            assertThat(connection.requestResponse("request " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(Duration.ofSeconds(10))).isEqualTo("REQUEST " + i);
        }
    }

    @Test
    void concurrentRequestsUpToTheStreamsAvailableAllGetTheirOwnAnswer() {
        final List<String> answers = Flux.range(0, 7)
            .flatMap(i -> connection.requestResponse("r" + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING))
            .collectList().block(Duration.ofSeconds(20));
        assertThat(answers).containsExactlyInAnyOrder("R0", "R1", "R2", "R3", "R4", "R5", "R6");
    }

    @Test
    void requestStreamDeliversEveryItemUnderBackPressure() {
        StepVerifier.create(connection.requestStream("1000", Codecs.UTF8_STRING, Codecs.UTF8_STRING), 10)
            .expectNextCount(10)
            .thenRequest(990)
            .expectNextCount(989)
            .expectNext("item 1000")
            .verifyComplete();
    }

    @Test
    void channelCarriesAStreamEachWay() {
        final List<String> answers = connection.requestChannel(Flux.range(0, 5000).map(i -> "m" + i),
            Codecs.UTF8_STRING, Codecs.UTF8_STRING).collectList().block(Duration.ofSeconds(30));
        assertThat(answers).hasSize(5000).startsWith("m0!", "m1!").endsWith("m4999!");
    }

    @Test
    void fireAndForgetReachesTheHandler() {
        for (int i = 0; i < 20; i++) {
            connection.fireAndForget("event " + i, Codecs.UTF8_STRING).block(Duration.ofSeconds(10));
        }
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (fired.size() < 20 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(fired).containsExactlyInAnyOrderElementsOf(Flux.range(0, 20).map(i -> "event " + i)
            .collectList().block());
    }

    @Test
    void aRequestWithoutAnAnswerTimesOutWithTheConfiguredTimeout() {
        final DisposableServer silent = RdmaServer.create().provider("shm").directory(directory).address("silent")
            .handleStreams((kind, in, out) -> Mono.never())
            .bind().block(Duration.ofSeconds(10));
        final Connection client = RdmaClient.create().provider("shm").directory(directory).address("silent")
            .requestTimeout(Duration.ofMillis(300)).connect().block(Duration.ofSeconds(10));
        try {
            StepVerifier.create(client.requestResponse("x", Codecs.UTF8_STRING, Codecs.UTF8_STRING))
                .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(java.util.concurrent.TimeoutException.class)
                    .hasMessageContaining("RdmaClient.requestTimeout"))
                .verify(Duration.ofSeconds(30));
        } finally {
            client.dispose();
            client.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            silent.dispose();
        }
    }

    @Test
    void aFailingHandlerFailsTheRequesterWithItsMessage() {
        final DisposableServer failing = RdmaServer.create().provider("shm").directory(directory).address("failing")
            .handleStreams((kind, in, out) -> out.send(Mono.<String>error(new IllegalStateException("no stock")),
                Codecs.UTF8_STRING))
            .bind().block(Duration.ofSeconds(10));
        final Connection client = RdmaClient.create().provider("shm").directory(directory).address("failing")
            .connect().block(Duration.ofSeconds(10));
        try {
            StepVerifier.create(client.requestResponse("x", Codecs.UTF8_STRING, Codecs.UTF8_STRING))
                .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(RdmaStreamException.class)
                    .hasMessageContaining("no stock"))
                .verify(Duration.ofSeconds(10));
        } finally {
            client.dispose();
            failing.dispose();
        }
    }
}

package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.internal.protocol.CallHeaderFlyweight;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * Request/response calls share one call stream per connection and side: many in flight at once, each answered once
 * to the call that made it, whatever was given up, failed or answered late meanwhile; and a peer that breaks the call
 * stream's rules ends its connection with an error that names the rule, never a crash or a wrong answer.
 */
@ExtendWith(TestTransportResolver.class)
class CallStreamTest {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    @ShmTestDirectory
    private Path directory;
    private final List<reactor.core.Disposable> opened = new ArrayList<>();

    CallStreamTest(final TestTransport transport) {
        this.transport = transport;
    }

    @AfterEach
    void stop() {
        for (final reactor.core.Disposable disposable : opened) {
            disposable.dispose();
            if (disposable instanceof Connection connection) {
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
        }
    }

    private DisposableServer serve(final String address, final StreamHandler handler) {
        final DisposableServer server = transport.server(directory, address).handleStreams(handler).bind()
            .block(ShmTestSupport.BOUND);
        opened.add(server);
        return server;
    }

    private Connection connect(final String address) {
        final Connection connection = transport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        opened.add(connection);
        return connection;
    }

    /** Answers "ANSWER TO " + the request, at once, or after {@code sleep:N:} N ms on another thread. */
    private static StreamHandler upperCaseAnswers() {
        return (kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next().flatMap(request -> {
            final String answer = "ANSWER TO " + request;
            if (request.startsWith("sleep:")) {
                final int millis = Integer.parseInt(request.substring(6, request.indexOf(':', 6)));
                return Mono.delay(Duration.ofMillis(millis), Schedulers.parallel()).thenReturn(answer);
            }
            return Mono.just(answer);
        }), Codecs.UTF8_STRING);
    }

    @Test
    void callsGivenUpAtAnyMomentLeaveEveryOtherCallItsOwnAnswerAndTheStreamServing() {
        final String address = transport.uniqueAddress("calls-given-up");
        serve(address, upperCaseAnswers());
        final Connection connection = connect(address);
        final int calls = (int) transport.scaled(3_000, 300);
        final SplittableRandom random = new SplittableRandom(20261205L);
        final List<Mono<String>> made = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            final String request = random.nextInt(3) == 0 ? "sleep:" + random.nextInt(3) + ":" + i : "call " + i;
            Mono<String> call = connection.requestResponse(request, Codecs.UTF8_STRING, Codecs.UTF8_STRING);
            if (random.nextInt(3) == 0) {
                // given up at some moment: waiting, sent, being answered, or after its answer
                call = call.timeout(Duration.ofNanos(random.nextLong(2_000_000)), Mono.just("given up"));
            }
            final String expected = "ANSWER TO " + request;
            made.add(call.map(answer -> answer.equals(expected) || answer.equals("given up") ? answer
                : "WRONG: " + answer + " for " + request));
        }
        final List<String> results = Flux.fromIterable(made).flatMap(call -> call, 300).collectList()
            .block(ShmTestSupport.BOUND);
        assertThat(results).hasSize(calls).noneMatch(result -> result.startsWith("WRONG"));
        assertThat(results).anyMatch(result -> result.startsWith("ANSWER TO"));
        for (int i = 0; i < 50; i++) { // every call id came back
            assertThat(connection.requestResponse("after " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("ANSWER TO after " + i);
        }
        assertThat(((DefaultConnection) connection).describeStreams()).contains("calls in use: 0");
    }

    @Test
    void aCallGivenUpAfterItWasSentCancelsItsHandlerAndTheCallerMovesOn() throws InterruptedException {
        final String address = transport.uniqueAddress("call-cancelled");
        final CountDownLatch serving = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);
        serve(address, (kind, in, out) -> in.receive(Codecs.UTF8_STRING).next().flatMap(request ->
            request.equals("hold") ? out.send(Mono.<String>never().doOnSubscribe(ignored -> serving.countDown())
                .doOnCancel(cancelled::countDown), Codecs.UTF8_STRING)
                : out.send(Mono.just("done " + request), Codecs.UTF8_STRING)));
        final Connection connection = connect(address);
        final reactor.core.Disposable held = connection.requestResponse("hold", Codecs.UTF8_STRING,
            Codecs.UTF8_STRING).subscribe();
        assertThat(serving.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        held.dispose();
        assertThat(cancelled.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS))
            .as("the handler's answer was cancelled").isTrue();
        assertThat(connection.requestResponse("next", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isEqualTo("done next");
    }

    @Test
    void handlersThatFailEndEmptyReadLateOrReadViewsAnswerAsTheyShould() {
        final String address = transport.uniqueAddress("call-ends");
        serve(address, (kind, in, out) -> {
            final String[] request = new String[1];
            in.receive(Codecs.UTF8_STRING).subscribe(value -> request[0] = value); // read in the handler, on the loop
            final String how = request[0];
            return switch (how) {
                case "fail" -> Mono.error(new IllegalStateException("no stock"));
                case "throw" -> throw new IllegalArgumentException("bad handler");
                case "empty" -> Mono.empty();
                default -> out.send(Mono.just("said " + how), Codecs.UTF8_STRING);
            };
        });
        final Connection connection = connect(address);
        assertThatThrownBy(() -> connection.requestResponse("fail", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isInstanceOf(RdmaStreamException.class).hasMessageContaining("no stock");
        assertThatThrownBy(() -> connection.requestResponse("throw", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isInstanceOf(RdmaStreamException.class).hasMessageContaining("bad handler");
        assertThat(connection.requestResponse("empty", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .blockOptional(ShmTestSupport.BOUND)).isEmpty();
        assertThat(connection.requestResponse("hi", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isEqualTo("said hi");

        final String late = transport.uniqueAddress("call-late");
        // reads its request after it returned, on another thread, and as a view: the request was kept for it
        serve(late, (kind, in, out) -> Mono.delay(Duration.ofMillis(2)).then(out.send(in.receiveViews()
            .map(view -> "late " + view.getStringWithoutLengthUtf8(0, view.capacity())), Codecs.UTF8_STRING)));
        final Connection lateConnection = connect(late);
        final List<String> answers = Flux.range(0, 200).flatMap(i -> lateConnection.requestResponse("r" + i,
            Codecs.UTF8_STRING, Codecs.UTF8_STRING).map(answer -> answer.equals("late r" + i) ? "ok" : answer), 64)
            .collectList().block(ShmTestSupport.BOUND);
        assertThat(answers).hasSize(200).allMatch("ok"::equals);
    }

    @Test
    void largeCallsGoInFragmentsBetweenSmallOnesAndEveryByteArrives() {
        final String address = transport.uniqueAddress("call-sizes");
        serve(address, (kind, in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY).next(), Codecs.BYTE_ARRAY));
        final Connection connection = connect(address);
        final SplittableRandom random = new SplittableRandom(7);
        final int calls = (int) transport.scaled(400, 60);
        final List<byte[]> requests = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            final byte[] request = new byte[i % 10 == 0 ? 20_000 + random.nextInt(200_000) : 1 + random.nextInt(64)];
            random.nextBytes(request);
            requests.add(request);
        }
        final List<Boolean> same = Flux.range(0, calls).flatMap(i -> connection.requestResponse(requests.get(i),
            Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY).map(answer -> java.util.Arrays.equals(answer, requests.get(i))), 32)
            .collectList().block(ShmTestSupport.BOUND);
        assertThat(same).hasSize(calls).allMatch(Boolean::booleanValue);
    }

    @Test
    void aHandlerReadsItsRequestInPlaceAsAViewWhileItRuns() {
        final String address = transport.uniqueAddress("call-views");
        // the view is read during onNext, on the loop, while the handler runs: no copy of the request is made
        serve(address, (kind, in, out) -> out.send(in.receiveViews().map(view -> {
            final byte[] bytes = new byte[view.capacity()];
            view.getBytes(0, bytes);
            return bytes;
        }).next(), Codecs.BYTE_ARRAY));
        final Connection connection = connect(address);
        final SplittableRandom random = new SplittableRandom(11);
        final int calls = (int) transport.scaled(300, 40);
        final List<byte[]> requests = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            final byte[] request = new byte[i % 7 == 0 ? 30_000 + random.nextInt(70_000) : 1 + random.nextInt(200)];
            random.nextBytes(request);
            requests.add(request);
        }
        final List<Boolean> same = Flux.range(0, calls).flatMap(i -> connection.requestResponse(requests.get(i),
            Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY).map(answer -> java.util.Arrays.equals(answer, requests.get(i))), 16)
            .collectList().block(ShmTestSupport.BOUND);
        assertThat(same).hasSize(calls).allMatch(Boolean::booleanValue);
    }

    @Test
    void aCallWhoseRequestCannotBeEncodedFailsAloneAndFreesItsId() {
        final String address = transport.uniqueAddress("call-encode");
        serve(address, upperCaseAnswers());
        final Connection connection = connect(address);
        final io.rdmareactive.codec.Codec<String> failing = new io.rdmareactive.codec.Codec<>() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public int encodedLength(final String value) {
                return 4;
            }

            @Override
            public int encode(final String value, final org.agrona.MutableDirectBuffer buffer, final int offset,
                              final int maxLength) {
                throw new IllegalStateException("cannot encode " + value);
            }

            @Override
            public String decode(final org.agrona.DirectBuffer buffer, final int offset, final int length) {
                throw new UnsupportedOperationException();
            }
        };
        for (int i = 0; i < CallHeaderFlyweight.MAX_CALLS + 10; i++) { // more than the ids: each came back
            final int call = i;
            assertThatThrownBy(() -> connection.requestResponse("x" + call, failing, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).hasMessageContaining("cannot encode x" + call);
        }
        assertThat(connection.requestResponse("fine", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isEqualTo("ANSWER TO fine");
    }

    // ------------------------------------------------------------------------------------------------ hostile callers

    private static byte[] message(final int callId, final int type, final String body) {
        final byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(CallHeaderFlyweight.LENGTH + bodyBytes.length).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(callId).putInt(type).put(bodyBytes).array();
    }

    @ParameterizedTest
    @ValueSource(strings = {"short", "id", "negative-id", "type", "in-use"})
    void aCallerThatBreaksTheCallStreamsRulesLosesItsConnectionWithTheRuleNamed(final String broken)
        throws InterruptedException {
        final String address = transport.uniqueAddress("call-rogue");
        final AtomicInteger served = new AtomicInteger();
        final DefaultServer server = (DefaultServer) serve(address, (kind, in, out) -> {
            served.incrementAndGet();
            return out.send(in.receive(Codecs.UTF8_STRING).next().filter(request -> !request.equals("hold"))
                .switchIfEmpty(Mono.never()), Codecs.UTF8_STRING);
        });
        final DefaultConnection rogue = (DefaultConnection) connect(address);
        final List<byte[]> messages = switch (broken) {
            case "short" -> List.of(new byte[] {1, 0, 0, 0});
            case "id" -> List.of(message(CallHeaderFlyweight.MAX_CALLS, CallHeaderFlyweight.CALL, "x"));
            case "negative-id" -> List.of(message(-1, CallHeaderFlyweight.CALL, "x"));
            case "type" -> List.of(message(3, 9, "x"));
            default -> List.of(message(7, CallHeaderFlyweight.CALL, "hold"), message(7, CallHeaderFlyweight.CALL,
                "again"));
        };
        final String named = switch (broken) {
            case "short" -> "a call message of 4 bytes, shorter than its 8-byte header";
            case "id" -> "call id 1024 outside [0, 1024)";
            case "negative-id" -> "call id -1 outside [0, 1024)";
            case "type" -> "call message type 9 unknown for a call";
            default -> "a CALL with call id 7, which is in use";
        };
        final CountDownLatch open = new CountDownLatch(1);
        final DefaultConnection.Opener opener = new DefaultConnection.Opener() {
            @Override
            public void opened(final StreamChannel channel) {
                // a call stream written by hand: the server reads these bytes as call messages
                channel.receive(Codecs.BYTE_ARRAY).subscribe(ignored -> { }, ignored -> { });
                channel.send(Flux.fromIterable(messages), Codecs.BYTE_ARRAY).subscribe(null, ignored -> { });
                open.countDown();
            }

            @Override
            public void refused(final Throwable error) {
            }

            @Override
            public boolean isCancelled() {
                return false;
            }
        };
        final DefaultConnection[] victim = new DefaultConnection[1];
        final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
        while (victim[0] == null && System.nanoTime() < deadline) { // the server's side of the rogue's connection
            for (final DefaultConnection connection : server.connections()) {
                victim[0] = connection;
            }
            Thread.onSpinWait();
        }
        assertThat(victim[0]).isNotNull();
        rogue.open(opener, () -> rogue.openOnLoop(StreamKind.REQUEST_RESPONSE, opener));
        assertThat(open.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        // the rogue's connection ends, and the server's side of it says why
        assertThatThrownBy(() -> victim[0].onDispose().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class).hasMessageContaining(named);
        rogue.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        assertThat(served.get()).as("handlers run").isLessThanOrEqualTo(1);
        // the server serves the next caller
        assertThat(connect(address).requestResponse("honest", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).isEqualTo("honest");
    }

    @Test
    void aCallWithoutAnAnswerTimesOutAndItsLateAnswerIsDropped() {
        final String address = transport.uniqueAddress("call-late-answer");
        final Sinks.Empty<Void> release = Sinks.empty();
        serve(address, (kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next()
            .delayUntil(request -> request.equals("slow") ? release.asMono() : Mono.empty()), Codecs.UTF8_STRING));
        final Connection connection = transport.client(directory, address).requestTimeout(Duration.ofMillis(200))
            .connect().block(ShmTestSupport.BOUND);
        opened.add(connection);
        assertThatThrownBy(() -> connection.requestResponse("slow", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND)).hasRootCauseInstanceOf(TimeoutException.class)
            .hasMessageContaining("RdmaClient.requestTimeout");
        release.tryEmitEmpty(); // the handler was cancelled; were it not, its answer would be dropped
        for (int i = 0; i < 20; i++) {
            assertThat(connection.requestResponse("quick " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("quick " + i);
        }
    }
}

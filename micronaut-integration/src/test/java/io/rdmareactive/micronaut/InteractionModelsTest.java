package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.annotation.Requires;
import io.micronaut.messaging.annotation.MessageHeader;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.rdmareactive.RdmaStreamException;
import io.rdmareactive.StreamKind;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Each interaction model, from an @RdmaClient in this test's context to an @RdmaListener in another. */
@MicronautTest
class InteractionModelsTest extends TwoContextsTest {

    private static final String SPEC = "InteractionModelsTest";
    static final List<String> RECORDED = new CopyOnWriteArrayList<>();
    static final List<RdmaStreamInfo> INFOS = new CopyOnWriteArrayList<>();

    InteractionModelsTest() {
        super(SPEC);
    }

    @Inject
    Calls calls;

    @Test
    void fireAndForgetReachesTheListenerWithItsHeader() {
        StepVerifier.create(calls.record("first", "t-1")).verifyComplete();
        calls.recordBlocking("second");
        // two calls are two streams: nothing orders the listener's calls across streams
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(RECORDED)
            .containsExactlyInAnyOrder("first/t-1", "second/none"));
    }

    @Test
    void requestResponseAnswersOnceAndSynchronousSignaturesWork() {
        StepVerifier.create(calls.quote("ACME")).expectNext("ACME:42").verifyComplete();
        assertThat(calls.length("four")).isEqualTo(4);
    }

    @Test
    void requestStreamDeliversEveryAnswerInOrder() {
        StepVerifier.create(calls.countTo(1_000))
            .expectNextSequence(Flux.range(1, 1_000).collectList().block())
            .verifyComplete();
    }

    @Test
    void aChannelStreamsBothWaysAndTheListenerLearnsTheStream() {
        final List<String> words = Flux.range(0, 500).map(i -> "word-" + i).collectList().block();
        StepVerifier.create(calls.upper(Flux.fromIterable(words), "channel-test"))
            .expectNextSequence(words.stream().map(String::toUpperCase).toList())
            .verifyComplete();
        final RdmaStreamInfo info = INFOS.get(INFOS.size() - 1);
        assertThat(info.channel()).isEqualTo("upper");
        assertThat(info.kind()).isEqualTo(StreamKind.CHANNEL);
        assertThat(info.server()).isEqualTo("default");
        assertThat(info.headers()).containsEntry("trace", "channel-test");
    }

    @Test
    void aChannelNoListenerServesFailsTheCallNamingIt() {
        StepVerifier.create(calls.nobodyServes("hello"))
            .expectErrorSatisfies(error -> assertThat(error)
                .isInstanceOf(RdmaStreamException.class)
                .hasMessageContaining("no @RdmaChannel(\"nowhere\")")
                .hasMessageContaining("upper"))
            .verify(Duration.ofSeconds(30));
        StepVerifier.create(calls.quote("STILL")).expectNext("STILL:42").verifyComplete();
    }

    @RdmaClient
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Calls {
        @RdmaChannel("record")
        Mono<Void> record(String text, @MessageHeader("trace") String trace);

        @RdmaChannel("record")
        void recordBlocking(String text);

        @RdmaChannel("quote")
        Mono<String> quote(String symbol);

        @RdmaChannel("length")
        int length(String text);

        @RdmaChannel("count")
        Flux<Integer> countTo(int last);

        @RdmaChannel("upper")
        Flux<String> upper(Flux<String> words, @MessageHeader("trace") String trace);

        @RdmaChannel("nowhere")
        Mono<String> nobodyServes(String text);
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class Listener {
        @RdmaChannel("record")
        Mono<Void> record(final String text, @MessageHeader("trace") @io.micronaut.core.annotation.Nullable
                          final String trace) {
            return Mono.fromRunnable(() -> RECORDED.add(text + "/" + (trace == null ? "none" : trace)));
        }

        @RdmaChannel("quote")
        Mono<String> quote(final String symbol) {
            return Mono.just(symbol + ":42");
        }

        @RdmaChannel("length")
        int length(final String text) {
            return text.length();
        }

        @RdmaChannel("count")
        Flux<Integer> count(final Integer last) {
            return Flux.range(1, last);
        }

        @RdmaChannel("upper")
        Flux<String> upper(final Flux<String> words, final RdmaStreamInfo info) {
            INFOS.add(info);
            return words.map(String::toUpperCase);
        }
    }
}

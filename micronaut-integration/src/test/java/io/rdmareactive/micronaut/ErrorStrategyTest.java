package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.rdmareactive.RdmaStreamException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** The error strategies (retry, skip, stop) with reactive listeners, and both kinds of exception handler. */
@MicronautTest
class ErrorStrategyTest extends TwoContextsTest {

    private static final String SPEC = "ErrorStrategyTest";
    static final AtomicInteger ATTEMPTS = new AtomicInteger();
    static final List<String> SKIPPED_THROUGH = new CopyOnWriteArrayList<>();
    static final List<String> STOPPED_THROUGH = new CopyOnWriteArrayList<>();
    static final List<RdmaListenerException> OWN_HANDLER = new CopyOnWriteArrayList<>();
    static final List<RdmaListenerException> APP_HANDLER = new CopyOnWriteArrayList<>();

    ErrorStrategyTest() {
        super(SPEC);
    }

    @Inject
    Calls calls;

    @Test
    void retryCallsAReactiveListenerAgainUntilItSucceeds() {
        StepVerifier.create(calls.flaky("x")).expectNext("x after 3 attempts").verifyComplete();
        assertThat(ATTEMPTS.get()).isEqualTo(3);
        assertThat(OWN_HANDLER).as("no failure is left once a retry succeeded").isEmpty();
    }

    @Test
    void skipReportsTheFailedMessageToTheBeansOwnHandlerAndGoesOn() {
        StepVerifier.create(calls.skip(Flux.just("a", "bad", "c"))).verifyComplete();
        assertThat(SKIPPED_THROUGH).containsExactly("a", "c");
        assertThat(OWN_HANDLER).singleElement().satisfies(failure -> {
            assertThat(failure.channel()).isEqualTo("skip");
            assertThat(failure.body()).contains("bad");
            assertThat(failure.getCause()).hasMessage("cannot take bad");
        });
    }

    @Test
    void stopEndsTheStreamAndTheCallFailsWithTheListenersError() {
        StepVerifier.create(calls.stop(Flux.just("a", "bad", "c")))
            .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(RdmaStreamException.class)
                .hasMessageContaining("channel 'stop'").hasMessageContaining("cannot take bad"))
            .verify(Duration.ofSeconds(30));
        assertThat(STOPPED_THROUGH).containsExactly("a");
        assertThat(APP_HANDLER).as("the application's replacement of the default handler")
            .singleElement().satisfies(failure -> assertThat(failure.body()).contains("bad"));
    }

    @RdmaClient
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Calls {
        @RdmaChannel("flaky")
        Mono<String> flaky(String text);

        @RdmaChannel("skip")
        Mono<Void> skip(Flux<String> texts);

        @RdmaChannel("stop")
        Mono<Void> stop(Flux<String> texts);
    }

    @RdmaListener
    @RdmaErrorStrategy(ErrorStrategy.SKIP)
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class HandlesItsOwn implements RdmaListenerExceptionHandler {
        @RdmaChannel("flaky")
        @RdmaErrorStrategy(value = ErrorStrategy.RETRY, retryAttempts = 4, retryDelay = "10ms", multiplier = 1.5)
        Mono<String> flaky(final String text) {
            return Mono.defer(() -> ATTEMPTS.incrementAndGet() < 3
                ? Mono.error(new IllegalStateException("not yet"))
                : Mono.just(text + " after " + ATTEMPTS.get() + " attempts"));
        }

        @RdmaChannel("skip")
        Mono<Void> skip(final String text) {
            return "bad".equals(text) ? Mono.error(new IllegalArgumentException("cannot take bad"))
                : Mono.fromRunnable(() -> SKIPPED_THROUGH.add(text));
        }

        @Override
        public void handle(final RdmaListenerException exception) {
            OWN_HANDLER.add(exception);
        }
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class Stops {
        @RdmaChannel("stop")
        @RdmaErrorStrategy(ErrorStrategy.STOP)
        Mono<Void> stop(final String text) {
            return "bad".equals(text) ? Mono.error(new IllegalArgumentException("cannot take bad"))
                : Mono.fromRunnable(() -> STOPPED_THROUGH.add(text));
        }
    }

    @Singleton
    @Replaces(DefaultRdmaListenerExceptionHandler.class)
    @Requires(property = "spec.name", value = SPEC)
    static class RecordingHandler implements RdmaListenerExceptionHandler {
        @Override
        public void handle(final RdmaListenerException exception) {
            APP_HANDLER.add(exception);
        }
    }
}

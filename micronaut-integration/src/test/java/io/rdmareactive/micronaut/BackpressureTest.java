package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.annotation.Requires;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A slow listener holds back a fast client's stream: the producer is never more than the listener's credit ahead of
 * what the listener finished (the bound documented on the channel: 2 × prefetch + concurrency), and every message
 * arrives once, in order.
 */
@MicronautTest
class BackpressureTest extends TwoContextsTest {

    private static final String SPEC = "BackpressureTest";
    static final int PREFETCH = 4;
    static final int CONCURRENCY = 1;
    static final int MESSAGES = 400;
    static final List<Integer> PROCESSED = new CopyOnWriteArrayList<>();
    static final AtomicLong COMPLETED = new AtomicLong();
    static final AtomicInteger RUNNING = new AtomicInteger();
    static final AtomicInteger MOST_RUNNING = new AtomicInteger();

    BackpressureTest() {
        super(SPEC);
    }

    @Inject
    Feed feed;

    @Test
    void aSlowListenerHoldsBackAFastProducerWithoutLoss() {
        final AtomicLong emitted = new AtomicLong();
        final AtomicLong mostAhead = new AtomicLong();
        final Flux<Integer> fast = Flux.range(0, MESSAGES).doOnNext(i -> {
            final long ahead = emitted.incrementAndGet() - COMPLETED.get();
            mostAhead.accumulateAndGet(ahead, Math::max);
        });

        feed.send(fast).block(Duration.ofSeconds(120));

        assertThat(PROCESSED).as("every message once, in order").containsExactlyElementsOf(
            Flux.range(0, MESSAGES).collectList().block());
        assertThat(MOST_RUNNING.get()).as("calls at once (concurrency)").isEqualTo(CONCURRENCY);
        assertThat(mostAhead.get()).as("messages the producer was ahead of the listener, at most")
            .isLessThanOrEqualTo(2L * PREFETCH + CONCURRENCY);
    }

    @RdmaClient
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Feed {
        /** Completes when the listener has processed every element. */
        @RdmaChannel("feed")
        Mono<Void> send(Flux<Integer> numbers);
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class SlowListener {
        @RdmaChannel(value = "feed", concurrency = CONCURRENCY, prefetch = PREFETCH)
        void consume(final Integer number) throws InterruptedException {
            MOST_RUNNING.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
            Thread.sleep(2); // slow: the producer could emit thousands meanwhile
            PROCESSED.add(number);
            RUNNING.decrementAndGet();
            COMPLETED.incrementAndGet();
        }
    }
}

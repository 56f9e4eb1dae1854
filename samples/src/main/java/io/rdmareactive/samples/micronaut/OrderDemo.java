package io.rdmareactive.samples.micronaut;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.io.PrintStream;
// tag::demo[]
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
// end::demo[]

/** What the order service does when it runs: one of each interaction model with the pricing service. */
@Singleton
@Requires(env = "orders")
public class OrderDemo {

    /** Orders in the stream step. */
    public static final int STREAMED = 1_000;

    private final PricingClient pricing;

    public OrderDemo(final PricingClient pricing) {
        this.pricing = pricing;
    }

    /**
     * What the run found.
     *
     * @param placed       orders sent fire-and-forget
     * @param quote        the quote for ACME
     * @param quotes       the quotes of the streamed orders, as they came back
     * @param mostAhead    the most orders the stream's producer was ahead of the quotes received
     */
    public record Outcome(int placed, Quote quote, List<Quote> quotes, long mostAhead) {
    }

    /**
     * Runs the three steps, printing one line each.
     *
     * @param out where the lines go
     * @return what it found
     */
    public Outcome run(final PrintStream out) {
        // tag::demo[]
        final List<Order> placed = List.of(new Order("o-1", "ACME", 10), new Order("o-2", "INIT", 5),
            new Order("o-3", "ACME", 7));
        for (final Order order : placed) {
            pricing.placed(order, "alice").block(Duration.ofSeconds(150)); // the first may wait for the connection
        }
        out.println("fire-and-forget: placed " + placed.size() + " orders (o-1, o-2, o-3) with the pricing service");

        final Quote quote = pricing.quote("ACME").block(Duration.ofSeconds(30));
        out.println("request/response: ACME costs " + quote.price());

        final AtomicLong emitted = new AtomicLong();
        final AtomicLong received = new AtomicLong();
        final AtomicLong mostAhead = new AtomicLong();
        final Flux<Order> orders = Flux.range(1, STREAMED)
            .map(i -> new Order("s-" + i, i % 2 == 0 ? "ACME" : "INIT", 1 + i % 3))
            .doOnNext(order -> mostAhead.accumulateAndGet(emitted.incrementAndGet() - received.get(), Math::max));
        final List<Quote> quotes = pricing.price(orders)
            .doOnNext(priced -> received.incrementAndGet())
            .collectList().block(Duration.ofSeconds(120));
        out.println("stream: " + quotes.size() + " orders priced, in order; the producer was at most "
            + mostAhead.get() + " orders ahead of the quotes");
        // end::demo[]
        return new Outcome(placed.size(), quote, quotes, mostAhead.get());
    }
}

package io.rdmareactive.samples.micronaut;

// tag::listener[]
import io.micronaut.context.annotation.Requires;
// end::listener[]
// tag::fire-and-forget[]
import io.micronaut.messaging.annotation.MessageHeader;
// tag::request-response[]
// tag::stream[]
import io.rdmareactive.micronaut.RdmaChannel;
// end::fire-and-forget[]
// end::request-response[]
// end::stream[]
// tag::listener[]
import io.rdmareactive.micronaut.RdmaListener;
// end::listener[]
// tag::stream[]
import java.time.Duration;
// end::stream[]
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
// tag::request-response[]
// tag::stream[]
import reactor.core.publisher.Mono;
// end::request-response[]
// end::stream[]

/** The pricing service's channels: it hears of placed orders, quotes symbols, and prices a stream of orders. */
// tag::listener[]
@RdmaListener
@Requires(env = "pricing")
public class PricingListener {
    // end::listener[]

    private static final Logger LOG = LoggerFactory.getLogger(PricingListener.class);
    private final Map<String, Integer> placed = new ConcurrentHashMap<>();
    private final AtomicLong priced = new AtomicLong();

    // tag::fire-and-forget[]
    @RdmaChannel("orders.placed")
    void placed(final Order order, @MessageHeader("customer") final String customer) {
        placed.merge(order.symbol(), order.quantity(), Integer::sum);
        LOG.info("order {} placed by {}: {} x {}", order.id(), customer, order.quantity(), order.symbol());
    }
    // end::fire-and-forget[]

    // tag::request-response[]
    @RdmaChannel("quote")
    Mono<Quote> quote(final String symbol) {
        return Mono.just(new Quote(symbol, priceCents(symbol)));
    }
    // end::request-response[]

    // tag::stream[]
    /** Slow on purpose (about 1 ms an order): the order service's stream must wait for it, not flood it. */
    @RdmaChannel(value = "orders.price", concurrency = 1, prefetch = 8)
    Mono<Quote> price(final Order order) {
        return Mono.delay(Duration.ofMillis(1))
            .map(tick -> new Quote(order.id(), priceCents(order.symbol()) * order.quantity()))
            .doOnNext(quote -> {
                if (priced.incrementAndGet() % 250 == 0) {
                    LOG.info("priced {} orders of the stream", priced.get());
                }
            });
    }
    // end::stream[]

    /** @return how many of each symbol were placed (fire-and-forget) */
    public Map<String, Integer> placed() {
        return Map.copyOf(placed);
    }

    static long priceCents(final String symbol) {
        return 10_000 + Math.floorMod(symbol.hashCode(), 500); // a made-up but stable price
    }
}

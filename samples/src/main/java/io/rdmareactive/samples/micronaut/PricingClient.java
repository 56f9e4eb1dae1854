package io.rdmareactive.samples.micronaut;

// tag::client[]
import io.micronaut.context.annotation.Requires;
import io.micronaut.messaging.annotation.MessageHeader;
import io.rdmareactive.micronaut.RdmaChannel;
import io.rdmareactive.micronaut.RdmaClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
// end::client[]

/** How the order service calls the pricing service: each method's signature picks the interaction model. */
// tag::client[]
@RdmaClient("pricing")
@Requires(env = "orders")
public interface PricingClient {

    /** Fire-and-forget: completes once the order is on its way. */
    @RdmaChannel("orders.placed")
    Mono<Void> placed(Order order, @MessageHeader("customer") String customer);

    /** Request/response: one quote back (rdma.clients.pricing.request-timeout). */
    @RdmaChannel("quote")
    Mono<Quote> quote(String symbol);

    /** A channel: orders go out as fast as the pricing service grants credit, quotes come back in order. */
    @RdmaChannel("orders.price")
    Flux<Quote> price(Flux<Order> orders);
}
// end::client[]

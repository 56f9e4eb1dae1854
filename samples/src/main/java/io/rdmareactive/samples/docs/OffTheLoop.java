package io.rdmareactive.samples.docs;

import io.rdmareactive.Connection;
// tag::publish-on[]
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
// end::publish-on[]

/** threading.md's blocking subscriber: the work moves off the event loop with {@code publishOn}. */
public final class OffTheLoop {

    private OffTheLoop() {
    }

    /**
     * @param connection a connection whose peer sends orders (its codecs know {@link Order})
     * @param store      where the orders go; its calls block
     * @return the keys of the saved orders, as they are saved
     */
    public static Flux<Long> saveAll(final Connection connection, final OrderStore store) {
        // tag::publish-on[]
        Flux<Long> keys = connection.inbound().receive(Order.class)
            .publishOn(Schedulers.boundedElastic())   // from here on, another thread; the loop goes back to polling
            .concatMap(order -> Mono.fromCallable(() -> store.save(order)));
        // end::publish-on[]
        return keys;
    }
}

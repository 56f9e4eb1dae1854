package io.rdmareactive.samples.micronaut;

// tag::main[]
import io.micronaut.context.ApplicationContext;
// end::main[]

/**
 * The order service: a Micronaut application (environment {@code orders}, {@code application-orders.yml}) that
 * places orders with the pricing service fire-and-forget, asks it for a quote, and streams it 1,000 orders, then
 * stops gracefully and exits 0. Start the pricing service first, or within {@code connect-timeout} (120 s here):
 * until then the client keeps trying to connect.
 *
 * <pre>./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=order-service</pre>
 */
public final class OrderService {

    private OrderService() {
    }

    // tag::main[]
    /** @param args unused */
    public static void main(final String[] args) {
        // not Micronaut.run, which would wait for Ctrl-C: this application makes its calls and exits
        try (ApplicationContext context = ApplicationContext.builder().environments("orders").start()) {
            context.getBean(OrderDemo.class).run(System.out);
        } // closing drains the calls in flight and closes the connection
        System.out.println("order service: done");
    }
    // end::main[]
}

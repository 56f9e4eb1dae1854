package io.rdmareactive.samples.micronaut;

import io.micronaut.context.ApplicationContext;
import java.util.concurrent.CountDownLatch;

/**
 * The pricing service: a Micronaut application (environment {@code pricing}, {@code application-pricing.yml}) whose
 * {@link PricingListener} serves the order service. It runs until Ctrl-C, then stops gracefully.
 *
 * <pre>./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=pricing-service</pre>
 */
public final class PricingService {

    private PricingService() {
    }

    /** @param args unused */
    public static void main(final String[] args) throws InterruptedException {
        final ApplicationContext context = ApplicationContext.builder().environments("pricing").start();
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            stopped.countDown();
        }, "pricing-service-stop"));
        System.out.println("pricing service: ready; start the order service in another terminal, Ctrl-C to stop");
        stopped.await();
    }
}

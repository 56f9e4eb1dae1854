package io.rdmareactive.samples.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The two sample services as the docs run them, each in its own application context with its own configuration
 * file (only the shared-memory directory is a private one here): the order service's run gets what it prints.
 */
class MicronautServicesTest {

    @Test
    void theOrderServiceUsesEachInteractionModelWithThePricingService(@ShmTestDirectory final Path directory) {
        final Map<String, Object> privateDirectory = Map.of("rdma.directory", directory.toString());
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (ApplicationContext pricing = ApplicationContext.builder().environments("pricing")
                 .properties(privateDirectory).start();
             ApplicationContext orders = ApplicationContext.builder().environments("orders")
                 .properties(privateDirectory).start()) {
            final OrderDemo.Outcome outcome = orders.getBean(OrderDemo.class)
                .run(new PrintStream(printed, true, StandardCharsets.UTF_8));

            assertThat(outcome.placed()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(pricing.getBean(PricingListener.class).placed()).isEqualTo(Map.of("ACME", 17, "INIT", 5)));
            assertThat(outcome.quote()).isEqualTo(new Quote("ACME", PricingListener.priceCents("ACME")));
            assertThat(outcome.quotes()).hasSize(OrderDemo.STREAMED);
            IntStream.rangeClosed(1, OrderDemo.STREAMED).forEach(i -> {
                final Quote quote = outcome.quotes().get(i - 1);
                assertThat(quote.reference()).isEqualTo("s-" + i);
                assertThat(quote.priceCents()).isEqualTo(PricingListener.priceCents(i % 2 == 0 ? "ACME" : "INIT")
                    * (1 + i % 3));
            });
            // the pricing side holds at most 2 x prefetch (8) + concurrency (1) orders, the client grants 16 quotes
            assertThat(outcome.mostAhead()).isLessThanOrEqualTo(2 * 8 + 1 + 16);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
            "fire-and-forget: placed 3 orders (o-1, o-2, o-3) with the pricing service",
            "request/response: ACME costs " + new Quote("ACME", PricingListener.priceCents("ACME")).price(),
            "stream: 1000 orders priced, in order; the producer was at most " + printed.toString(StandardCharsets.UTF_8)
                .replaceAll("(?s).*at most (\\d+) orders.*", "$1") + " orders ahead of the quotes");
    }
}

package io.rdmareactive.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.rdmareactive.micronaut.health.RdmaHealthIndicator;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Health, meters of both sides, and a graceful stop of the client's application that loses nothing. */
class OperationsTest {

    private static final String SPEC = "OperationsTest";
    static final List<Integer> RECEIVED = new CopyOnWriteArrayList<>();

    private TwoSides sides;

    @BeforeEach
    void start() {
        RECEIVED.clear();
        sides = new TwoSides(SPEC);
        sides.startServer();
    }

    @AfterEach
    void stop() {
        sides.close();
    }

    private ApplicationContext client(final Map<String, String> extra) {
        final Map<String, Object> properties = new HashMap<>(sides.clientProperties());
        properties.putAll(extra);
        return ApplicationContext.run(properties);
    }

    @Test
    void fireAndForgetCallsInFlightWhenTheApplicationStopsAllArrive() {
        final int calls = 300;
        try (ApplicationContext client = client(Map.of())) {
            final Records records = client.getBean(Records.class);
            for (int i = 0; i < calls; i++) {
                records.record(i).subscribe(); // not waited for: the stop must drain them
            }
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(RECEIVED)
            .as("the calls the listener received, though the client stopped right after making them").hasSize(calls));
        assertThat(RECEIVED).doesNotHaveDuplicates();
    }

    @Test
    void healthIsUpWhenConnectedAndTheMetersCountTheMessages() {
        final Map<String, String> operations = Map.of("micronaut.metrics.enabled", "true",
            "endpoints.health.enabled", "true");
        try (ApplicationContext client = client(operations)) {
            final Records records = client.getBean(Records.class);
            for (int i = 0; i < 10; i++) {
                records.record(i).block(Duration.ofSeconds(30));
            }
            final HealthResult health = Mono.from(client.getBean(RdmaHealthIndicator.class).getResult())
                .block(Duration.ofSeconds(10));
            assertThat(health.getStatus()).isEqualTo(HealthStatus.UP);
            assertThat(health.getDetails().toString()).contains("default").contains("connected");

            final MeterRegistry meters = client.getBean(MeterRegistry.class);
            // the meters must survive collections: Micrometer holds a function counter's object weakly by default,
            // and a meter whose object was collected reads its last value (0) for ever
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            // a fire-and-forget call completes once its message is in the ring; the driver counts it when it posts
            // it, a moment later
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(meters.get("rdma.messages.sent")
                .tag("side", "client").tag("name", "default").functionCounter().count())
                .as("messages the client's driver sent").isGreaterThanOrEqualTo(10));

            client.getBean(io.rdmareactive.micronaut.internal.RdmaClientConnections.class);
            sides.stopServer();
            await().atMost(Duration.ofSeconds(30)).until(() -> Mono.from(client.getBean(RdmaHealthIndicator.class)
                .getResult()).block(Duration.ofSeconds(10)).getStatus().equals(HealthStatus.DOWN));
        }
    }

    @Test
    void theServersMetersCountTheMessagesItReceives() {
        sides.stopServer();
        final ApplicationContext server = sides.startServer(Map.of("micronaut.metrics.enabled", "true"));
        try (ApplicationContext client = client(Map.of())) {
            final Records records = client.getBean(Records.class);
            for (int i = 0; i < 10; i++) {
                records.record(i).block(Duration.ofSeconds(30));
            }
            final MeterRegistry meters = server.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(meters.get("rdma.messages.received")
                .tag("side", "server").tag("name", "default").functionCounter().count())
                .as("messages the server's driver received").isGreaterThanOrEqualTo(10));
        }
    }

    @Test
    void theIndicatorAndTheMetersCanBeSwitchedOff() {
        final Map<String, String> off = Map.of("micronaut.metrics.enabled", "true", "endpoints.health.enabled", "true",
            "endpoints.health.rdma.enabled", "false", "micronaut.metrics.binders.rdma.enabled", "false");
        try (ApplicationContext client = client(off)) {
            assertThat(client.containsBean(RdmaHealthIndicator.class)).isFalse();
            assertThat(client.getBean(MeterRegistry.class).find("rdma.messages.sent").functionCounters()).isEmpty();
        }
    }

    @RdmaClient
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "client")
    interface Records {
        @RdmaChannel("record")
        Mono<Void> record(int number);
    }

    @RdmaListener
    @Requires(property = "spec.name", value = SPEC)
    @Requires(property = "spec.side", value = "server")
    static class RecordListener {
        @RdmaChannel("record")
        void record(final int number) throws InterruptedException {
            Thread.sleep(2); // a listener that takes a moment: calls are still running when the client stops
            RECEIVED.add(number);
        }
    }
}

package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The handshake's negotiation, and the answers a listener gives when it cannot take a connection. */
class ConnectionSetupTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @ShmTestDirectory
    private Path directory;

    private static ProtocolOptions options(final int maxStreams, final int ringCapacity, final int maxMessageLength) {
        return new ProtocolOptions(maxStreams, ringCapacity, maxMessageLength, Duration.ofSeconds(1),
            Duration.ofSeconds(5));
    }

    @Test
    void bothSidesUseTheSmallerMaximumMessageLengthWhicheverSideHasIt() {
        try (ConnectionPair pair = ConnectionPair.open(options(4, 8192, 64 * 1024), options(4, 8192, 1 << 20))) {
            assertThat(pair.server.options().maxMessageLength()).isEqualTo(64 * 1024);
            assertThat(pair.client.options().maxMessageLength()).as("the client's, agreed with the server's answer")
                .isEqualTo(64 * 1024);
        }
        try (ConnectionPair pair = ConnectionPair.open(options(4, 8192, 1 << 20), options(4, 8192, 4096))) {
            assertThat(pair.server.options().maxMessageLength()).isEqualTo(4096);
            assertThat(pair.client.options().maxMessageLength()).isEqualTo(4096);
        }
    }

    @Test
    void theListenerTakesFewerStreamsAndSmallerRingsThanItAllowsAndAnswersWithThem() {
        try (ConnectionPair pair = ConnectionPair.open(options(16, 1 << 16, 1 << 20), options(3, 4096, 1 << 20))) {
            assertThat(pair.server.options().maxStreams()).isEqualTo(3);
            assertThat(pair.server.options().ringCapacity()).isEqualTo(4096);
            assertThat(pair.client.options().maxStreams()).isEqualTo(3);
            assertThat(pair.client.options().ringCapacity()).isEqualTo(4096);
        }
    }

    @Test
    void aClientAskingForMoreStreamsThanTheListenerAllowsIsRefusedWithAReasonBothSidesRead() throws Exception {
        try (RdmaDevice serverDevice = open(DeviceOptions.builder().directory(directory).build());
             RdmaDevice clientDevice = open(DeviceOptions.builder().directory(directory).build());
             Listener listener = serverDevice.listen("few")) {
            final CompletableFuture<Throwable> server = refusal(serverDevice, listener, options(4, 8192, 1 << 20));

            assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "few", options(8, 8192, 1 << 20),
                TIMEOUT)).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("refused the connection: the peer asks for 8 streams; this side allows 2 to 4");
            assertThat(server.get()).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("the peer asks for 8 streams; this side allows 2 to 4");
        }
    }

    @Test
    void aRequestWhoseConnectionCannotBeAllocatedIsRejectedNotLeftUnanswered() throws Exception {
        // the listener's device may register less than one connection's rings
        try (RdmaDevice serverDevice = open(DeviceOptions.builder().directory(directory).maxRegisteredBytes(64 * 1024)
                 .build());
             RdmaDevice clientDevice = open(DeviceOptions.builder().directory(directory).build());
             Listener listener = serverDevice.listen("poor")) {
            final CompletableFuture<Throwable> server = refusal(serverDevice, listener, options(4, 1 << 16, 1 << 20));

            final long start = System.nanoTime();
            assertThatThrownBy(() -> ConnectionEstablishment.connect(clientDevice, "poor", options(4, 1 << 16, 1 << 20),
                Duration.ofSeconds(30))).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("refused the connection: the listener cannot allocate the connection");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered, not timed out")
                .isLessThan(Duration.ofSeconds(20));
            assertThat(server.get()).as("the listener rethrows what failed").isNotNull()
                .isNotInstanceOf(ProtocolException.class);
            assertThat(serverDevice.registeredBytes()).as("nothing stays registered").isZero();
        }
    }

    private static RdmaDevice open(final DeviceOptions options) {
        return RdmaProviders.named("shm").open(options);
    }

    /** Accepts one request on another thread: what {@code accept} threw, or null if it accepted. */
    private static CompletableFuture<Throwable> refusal(final RdmaDevice device, final Listener listener,
                                                       final ProtocolOptions options) {
        return CompletableFuture.supplyAsync(() -> {
            final ConnectRequest request = listener.accept(TIMEOUT);
            try {
                ConnectionEstablishment.accept(device, request, options).close();
                return null;
            } catch (final RuntimeException ex) {
                return ex;
            }
        });
    }
}

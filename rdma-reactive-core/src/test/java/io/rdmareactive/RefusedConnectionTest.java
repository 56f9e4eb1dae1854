package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.internal.protocol.ConnectionEstablishment;
import io.rdmareactive.internal.protocol.ProtocolOptions;
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
import reactor.core.publisher.Mono;

/**
 * A server that cannot set a connection up (here: its device may register too little memory for the connection's
 * rings) answers the client at once with why, rather than leaving it to wait for its connect timeout and then
 * blame the server for not answering. The serving side is the protocol's accept, which is what {@code RdmaServer}
 * runs for each connect request.
 */
class RefusedConnectionTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void aServerThatCannotAllocateTheConnectionRefusesItWithTheReason() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("too-small");
        final DeviceOptions tiny = DeviceOptions.builder().directory(directory).maxRegisteredBytes(64 * 1024).build();
        try (RdmaDevice device = RdmaProviders.named("shm").open(tiny); Listener listener = device.listen(address)) {
            // a connect timeout far longer than the wait below: only an answer from the server ends it in time
            final CompletableFuture<Throwable> connected = ShmTestSupport.client(directory, address)
                .connectTimeout(Duration.ofMinutes(10)).connect()
                .map(connection -> {
                    connection.dispose();
                    return (Throwable) new AssertionError("connected");
                })
                .onErrorResume(Mono::just)
                .toFuture();
            final ConnectRequest request = listener.accept(ShmTestSupport.BOUND);
            assertThat(request).as("the client's connect request").isNotNull();

            assertThatThrownBy(() -> ConnectionEstablishment.accept(device, request, ProtocolOptions.DEFAULTS))
                .as("the server side cannot allocate the connection's rings")
                .hasMessageContaining("registered bytes");

            assertThat(connected).as("the client hears back from the server, not from its 10-minute connect timeout")
                .succeedsWithin(ShmTestSupport.BOUND)
                .satisfies(error -> {
                    assertThat(error).as("the client's connect").isInstanceOf(RdmaConnectionException.class);
                    assertThat(error.getMessage()).as("it says the server refused, and why")
                        .contains(address).contains("refused").contains("cannot");
                });
        }
    }
}

package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * {@link RdmaServer#bindNow} and {@link RdmaClient#connectNow}: they return what {@code bind()} and {@code connect()}
 * deliver, throw their failures unwrapped, and give up after their bound with a message that names the address.
 */
class BlockingCallsTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void bindNowAndConnectNowReturnAWorkingServerAndConnection() {
        final String address = ShmTestSupport.uniqueAddress("now");
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase),
                Codecs.UTF8_STRING))
            .bindNow();
        try {
            assertThat(server.address()).as("the bound server's address").isEqualTo(address);
            final Connection connection = ShmTestSupport.client(directory, address).connectNow(ShmTestSupport.BOUND);
            try {
                connection.outbound().send(Flux.just("ping"), Codecs.UTF8_STRING).then().subscribe();
                assertThat(connection.inbound().receive(Codecs.UTF8_STRING).next().block(ShmTestSupport.BOUND))
                    .as("the echo over the connection connectNow() made").isEqualTo("PING");
            } finally {
                connection.dispose();
            }
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void connectNowToNoServerThrowsTheConnectionExceptionItself() {
        final String address = ShmTestSupport.uniqueAddress("nobody");
        assertThatThrownBy(() -> ShmTestSupport.client(directory, address).connectNow())
            .as("the failure connect() signals, not a wrapper")
            .isExactlyInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining(address);
    }

    @Test
    void connectNowWithoutAnAddressThrowsTheIllegalStateExceptionItself() {
        assertThatThrownBy(() -> RdmaClient.create().provider("shm").directory(directory).connectNow())
            .isExactlyInstanceOf(IllegalStateException.class)
            .hasMessageContaining("needs an address");
    }

    @Test
    void bindNowAtAnAddressInUseThrowsTheConnectionExceptionItself() {
        final String address = ShmTestSupport.uniqueAddress("taken");
        final DisposableServer first = ShmTestSupport.server(directory, address).bindNow();
        try {
            assertThatThrownBy(() -> ShmTestSupport.server(directory, address).bindNow())
                .isExactlyInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining(address);
        } finally {
            first.dispose();
            first.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void connectNowGivesUpAfterItsBoundNamingTheAddressAndTheBound() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("silent");
        final DeviceOptions options = DeviceOptions.builder().directory(directory).build();
        // a listener that never answers, and a connect timeout far beyond the bound: only the bound ends the wait
        try (RdmaDevice device = RdmaProviders.named("shm").open(options); Listener listener = device.listen(address)) {
            assertThat(listener.address()).isEqualTo(address);
            final Duration bound = Duration.ofMillis(500);
            final long start = System.nanoTime();
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address)
                .connectTimeout(Duration.ofMinutes(10)).connectNow(bound))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining(address)
                .hasMessageContaining(bound.toString());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("it gave up at its bound")
                .isLessThan(ShmTestSupport.BOUND);
        }
    }

    @Test
    void aServerWithoutAnAddressListensAtAFreshNameThatItsAddressNames() {
        final RdmaServer unnamed = RdmaServer.create().provider("shm").directory(directory).idleStrategy("backoff")
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING));
        final DisposableServer first = unnamed.bindNow();
        final DisposableServer second = unnamed.bindNow();
        try {
            assertThat(first.address()).as("a fresh name").startsWith("server-" + ProcessHandle.current().pid() + "-");
            assertThat(second.address()).as("another server's fresh name").isNotEqualTo(first.address());
            final Connection connection = ShmTestSupport.client(directory, first.address()).connectNow();
            try {
                connection.outbound().send(Flux.just("echo"), Codecs.UTF8_STRING).then().subscribe();
                assertThat(connection.inbound().receive(Codecs.UTF8_STRING).next().block(ShmTestSupport.BOUND))
                    .as("a client reaches the server at its address()").isEqualTo("echo");
            } finally {
                connection.dispose();
            }
        } finally {
            first.dispose();
            second.dispose();
            first.onDispose().block(ShmTestSupport.BOUND);
            second.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void aTimeoutMustBePositive() {
        assertThatThrownBy(() -> RdmaServer.create().bindNow(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RdmaClient.create().connectNow(Duration.ofSeconds(-1)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}

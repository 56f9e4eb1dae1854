package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The library logs through Reactor's {@code Loggers}, under the names of its classes: a connection refused for a limit
 * is a warning of the server's logger with the client and the reason, and a handler that throws is a warning that
 * carries the exception. {@link CapturedLogs} sees what the loggers are given, whichever backend Reactor chose.
 */
class LoggingTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void aConnectionRefusedForALimitIsAWarningOfTheServerNamingTheClientAndTheReason() {
        final String address = ShmTestSupport.uniqueAddress("log-refused");
        final DisposableServer server = ShmTestSupport.server(directory, address).maxConnections(1)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try (CapturedLogs logs = CapturedLogs.open()) {
            final Connection first = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND))
                .hasMessageContaining("maximum of 1 connections");
            // the server logs before it answers the client, so the warning is there once the client has its error
            assertThat(logs.of(DefaultServer.class)).as("what the server's logger was given").singleElement()
                .satisfies(entry -> {
                    assertThat(entry.logger()).isEqualTo("io.rdmareactive.DefaultServer");
                    assertThat(entry.level()).isEqualTo("WARN");
                    assertThat(entry.message()).startsWith("refused a connection from ")
                        .endsWith(": the server serves its maximum of 1 connections (RdmaServer.maxConnections)")
                        .doesNotContain("{}");
                    assertThat(entry.error()).isNull();
                });
            first.dispose();
            first.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        } finally {
            server.dispose();
        }
    }

    @Test
    void aHandlerThatThrowsIsAWarningCarryingItsException() {
        final String address = ShmTestSupport.uniqueAddress("log-handler");
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> {
                throw new IllegalStateException("this handler breaks on purpose");
            })
            .bind().block(ShmTestSupport.BOUND);
        try (CapturedLogs logs = CapturedLogs.open()) {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .onErrorResume(error -> Mono.empty()).block(ShmTestSupport.BOUND);
            await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> assertThat(logs.of(DefaultServer.class))
                .as("what the server's logger was given").singleElement().satisfies(entry -> {
                    assertThat(entry.level()).isEqualTo("WARN");
                    assertThat(entry.message()).startsWith("the handler of the connection from ").endsWith(" failed")
                        .doesNotContain("{}");
                    assertThat(entry.error()).isInstanceOf(IllegalStateException.class)
                        .hasMessage("this handler breaks on purpose");
                }));
            if (connection != null) {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
        } finally {
            server.dispose();
        }
    }
}

package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code wiretap(true)}: every frame a connection sends and receives is one DEBUG line of the wiretap's logger, with
 * the direction, the stream, the frame type, the length and the payload's first bytes in hex; without it, nothing.
 */
class WiretapTest {

    private static final String SERVER_CATEGORY = "io.rdmareactive.test.wire.server";
    private static final String CLIENT_CATEGORY = RdmaClient.class.getName();

    @ShmTestDirectory
    private Path directory;

    @Test
    void aRequestResponseLogsItsFramesInBothDirectionsOnBothSides() {
        final String address = ShmTestSupport.uniqueAddress("wiretap-on");
        final String request = "wiretapped request";
        final String requestHex = HexFormat.of().formatHex(request.getBytes(StandardCharsets.UTF_8));
        final String answerHex = HexFormat.of().formatHex(("echo " + request).getBytes(StandardCharsets.UTF_8));
        try (CapturedLogs logs = CapturedLogs.open()) {
            final DisposableServer server = ShmTestSupport.server(directory, address).wiretap(SERVER_CATEGORY)
                .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(text -> "echo " + text),
                    Codecs.UTF8_STRING))
                .bindNow(ShmTestSupport.BOUND);
            final Connection connection = ShmTestSupport.client(directory, address).wiretap(true)
                .connectNow(ShmTestSupport.BOUND);
            try {
                assertThat(connection.requestResponse(request, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("echo " + request);
                // the server's lines are written before its answer is sent, the client's before its answer arrives
                // in the subscriber: all are there once the call completed; the client's RECEIVED line for the answer
                // may follow the answer by the time the loop returns, so it is awaited
                await().atMost(ShmTestSupport.BOUND).untilAsserted(() -> {
                    assertThat(lines(logs, CLIENT_CATEGORY, "SENT")).anySatisfy(line ->
                        assertThat(line).contains(" DATA ").contains(requestHex));
                    assertThat(lines(logs, CLIENT_CATEGORY, "SENT")).anySatisfy(line ->
                        assertThat(line).contains(" OPEN "));
                    assertThat(lines(logs, SERVER_CATEGORY, "RECEIVED")).anySatisfy(line ->
                        assertThat(line).contains(" DATA ").contains(requestHex));
                    assertThat(lines(logs, SERVER_CATEGORY, "SENT")).anySatisfy(line ->
                        assertThat(line).contains(" DATA ").contains(answerHex));
                    assertThat(lines(logs, CLIENT_CATEGORY, "RECEIVED")).anySatisfy(line ->
                        assertThat(line).contains(" DATA ").contains(answerHex));
                });
                assertThat(logs.entries()).filteredOn(entry -> entry.logger().equals(CLIENT_CATEGORY)
                    || entry.logger().equals(SERVER_CATEGORY)).allSatisfy(entry -> {
                        assertThat(entry.level()).isEqualTo("DEBUG");
                        assertThat(entry.message()).matches("\\[(client|server) [0-9a-f]+ .+\\] (SENT|RECEIVED) "
                            + "stream=\\d+ [A-Z_]+ flags=0x[0-9a-f]+ length=\\d+ [0-9a-f]*(\\.\\.\\.)?");
                    });
                assertThat(lines(logs, CLIENT_CATEGORY, "SENT")).first().asString().startsWith("[client ");
                assertThat(lines(logs, SERVER_CATEGORY, "SENT")).first().asString().startsWith("[server ");
            } finally {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
                server.dispose();
                server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
        }
    }

    @Test
    void withoutAWiretapNoFrameIsLogged() {
        final String address = ShmTestSupport.uniqueAddress("wiretap-off");
        try (CapturedLogs logs = CapturedLogs.open()) {
            final DisposableServer server = ShmTestSupport.server(directory, address)
                .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
                .bindNow(ShmTestSupport.BOUND);
            final Connection connection = ShmTestSupport.client(directory, address).wiretap(true).wiretap(false)
                .connectNow(ShmTestSupport.BOUND);
            try {
                assertThat(connection.requestResponse("quiet", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .block(ShmTestSupport.BOUND)).isEqualTo("quiet");
            } finally {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
                server.dispose();
                server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
            assertThat(logs.entries()).as("lines of a wiretap").noneMatch(entry ->
                entry.message().contains("] SENT stream=") || entry.message().contains("] RECEIVED stream="));
        }
    }

    @Test
    void aWiretapCategoryIsNotBlank() {
        assertThatThrownBy(() -> RdmaClient.create().wiretap(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RdmaServer.create().wiretap("")).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> lines(final CapturedLogs logs, final String category, final String direction) {
        return logs.entries().stream().filter(entry -> entry.logger().equals(category))
            .map(CapturedLogs.Entry::message).filter(message -> message.contains("] " + direction + " ")).toList();
    }
}

package io.rdmareactive.samples.docs;

// tag::echo[]
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaCounters;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Flux;

/** An upper-casing echo server and a client of it, in one process, over shared memory. */
public final class UpperCaseEcho {

    /** @param args the messages to send; a few words when none are given */
    public static void main(final String[] args) {
        final List<String> messages = args.length > 0 ? List.of(args) : List.of("hello", "over", "shm");
        System.out.println(echo(messages));
    }

    /**
     * @param messages what the client sends
     * @return what the server sent back, in order
     */
    public static List<String> echo(final List<String> messages) {
        // the server: each connection's messages come back upper-cased; the connection ends when the client's do
        final DisposableServer server = RdmaServer.create().provider("shm")
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(Duration.ofSeconds(10));
        final Connection connection = RdmaClient.create().provider("shm").address(server.address())
            .connect().block(Duration.ofSeconds(10));
        try {
            // receive and send at once: the echoes arrive while the messages still go out
            final List<String> echoes = connection.inbound().receive(Codecs.UTF8_STRING).collectList()
                .zipWith(connection.outbound().send(Flux.fromIterable(messages), Codecs.UTF8_STRING).thenReturn(true),
                    (received, sent) -> received)
                .block(Duration.ofSeconds(10));
            final RdmaCounters counters = connection.counters(); // the runtime's, which the server shares here
            System.out.println(counters.messagesSent() + " messages sent, " + counters.messagesReceived() + " received");
            return echoes;
        } finally {
            connection.dispose();                                // returns at once
            connection.onDispose().block(Duration.ofSeconds(10)); // closed, its memory and files freed
            server.dispose();
            server.onDispose().block(Duration.ofSeconds(10));
        }
    }
}
// end::echo[]

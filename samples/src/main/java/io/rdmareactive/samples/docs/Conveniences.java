package io.rdmareactive.samples.docs;

// tag::blocking[]
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
import reactor.util.Logger;
import reactor.util.Loggers;
// end::blocking[]

/**
 * The blocking shortcuts and connection hooks of getting-started.md: {@code bindNow()}, {@code connectNow()},
 * {@code doOnConnection}, {@code doOnConnected}, {@code doOnDisconnected}, a server at a fresh address.
 */
public final class Conveniences {

    // tag::blocking[]
    private static final Logger log = Loggers.getLogger(Conveniences.class);
    // end::blocking[]

    private Conveniences() {
    }

    /**
     * A connected pair.
     *
     * @param server     the echo server
     * @param connection a client's connection to it
     */
    public record Pair(DisposableServer server, Connection connection) {
    }

    /** @return an echo server at a fresh name, and a connection to it; dispose of both */
    public static Pair connected() {
        // tag::blocking[]
        DisposableServer server = RdmaServer.create().provider("shm")      // no address: a fresh name
            .doOnConnection(c -> log.info("connected: {}", c.peer()))      // each accepted connection, before the handler
            .doOnDisconnected(c -> log.info("gone: {}", c.peer()))         // once, however it ended
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bindNow();                                                    // at most 30 s
        Connection connection = RdmaClient.create().provider("shm")
            .address(server.address())                                     // the name it picked
            .doOnConnected(c -> log.info("connected to {}", c.peer()))
            .connectNow();                                                 // the connect timeout + 30 s at most
        // end::blocking[]
        return new Pair(server, connection);
    }
}

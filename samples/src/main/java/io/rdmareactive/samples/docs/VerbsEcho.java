package io.rdmareactive.samples.docs;

// tag::verbs[]
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.Codecs;
// end::verbs[]

/** verbs.md's echo over the verbs provider: the same API, a {@code host:port} address on the RDMA interface. */
public final class VerbsEcho {

    private VerbsEcho() {
    }

    /**
     * A server and a client's connection to it.
     *
     * @param server     the server
     * @param connection the connection
     */
    public record Pair(DisposableServer server, Connection connection) {
    }

    /**
     * @param address an IPv4 address of an interface an RDMA device serves, and a port: {@code 192.168.1.10:7471}
     * @return an upper-casing echo server there, and a connection to it
     */
    public static Pair connect(final String address) {
        // tag::verbs[]
        DisposableServer server = RdmaServer.create().provider("verbs").address(address)   // e.g. "192.168.1.10:7471"
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase), Codecs.UTF8_STRING))
            .bindNow();
        Connection connection = RdmaClient.create().provider("verbs").address(server.address()).connectNow();
        // end::verbs[]
        return new Pair(server, connection);
    }
}

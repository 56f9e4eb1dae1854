package io.rdmareactive.samples.docs;

// tag::secret[]
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
// end::secret[]
import io.rdmareactive.StreamHandler;
import java.io.IOException;
// tag::secret[]
import java.nio.file.Files;
// end::secret[]
import java.nio.file.Path;

/** security.md's authenticated handshake: both sides hold the same secret. */
public final class SharedSecret {

    private SharedSecret() {
    }

    /**
     * A server and a client that share a secret.
     *
     * @param server     the server
     * @param connection the client's connection to it
     */
    public record Pair(DisposableServer server, Connection connection) {
    }

    /**
     * @param secretFile a file of at least 16 random bytes that only the service can read
     * @param handler    what the server serves
     * @return a server holding the secret, and a client's connection to it made with the same secret
     * @throws IOException if the file cannot be read
     */
    public static Pair connect(final Path secretFile, final StreamHandler handler) throws IOException {
        // tag::secret[]
        byte[] secret = Files.readAllBytes(secretFile);   // e.g. 32 bytes from SecureRandom, readable by the service only
        DisposableServer server = RdmaServer.create().provider("shm").secret(secret)
            .handleStreams(handler).bindNow();
        Connection connection = RdmaClient.create().provider("shm").address(server.address()).secret(secret)
            .connectNow();
        // end::secret[]
        return new Pair(server, connection);
    }
}

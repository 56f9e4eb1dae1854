package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The child of {@link ShmOtherUserTest}'s test of a user without a name: run as a uid with no passwd entry, it opens
 * two shared-memory devices in a directory of its own and connects one to the other, then prints {@code CONNECTED}.
 */
public final class NamelessUserPeer {

    private NamelessUserPeer() {
    }

    public static void main(final String[] args) throws Exception {
        final Path directory = Path.of(args[0]);
        final DeviceOptions options = DeviceOptions.builder().directory(directory).build();
        try (RdmaDevice server = RdmaProviders.named("shm").open(options);
             RdmaDevice client = RdmaProviders.named("shm").open(options);
             Listener listener = server.listen("nameless")) {
            final CompletionQueue serverCq = server.createCompletionQueue(16);
            final CompletionQueue clientCq = client.createCompletionQueue(16);
            final CompletableFuture<QueuePair> accepted = CompletableFuture.supplyAsync(() ->
                listener.accept(Duration.ofSeconds(30)).accept(QueuePairOptions.builder(serverCq, serverCq).build(),
                    new byte[0]));
            try (QueuePair connected = client.connect("nameless", QueuePairOptions.builder(clientCq, clientCq).build(),
                new byte[0], Duration.ofSeconds(30));
                 QueuePair acceptedPair = accepted.get(30, TimeUnit.SECONDS)) {
                System.out.println("CONNECTED as user.name=" + System.getProperty("user.name") + " (client "
                    + connected.state() + ", server " + acceptedPair.state() + ")");
            }
        }
    }
}

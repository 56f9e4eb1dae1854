package io.rdmareactive.internal.protocol;

import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * The second JVM of the protocol's multi-process tests. Modes:
 * <ul>
 *   <li>{@code produce DIR ADDRESS STREAMS COUNT}: connects and sends COUNT checksummed messages of mixed sizes,
 *   round-robin over streams 1..STREAMS, then waits until the peer has consumed everything and exits 0;</li>
 *   <li>{@code hang DIR ADDRESS}: connects, says READY, and keeps the connection alive until it is killed.</li>
 * </ul>
 */
public final class ProtocolPeer {

    private ProtocolPeer() {
    }

    public static void main(final String[] args) throws Exception {
        final String mode = args[0];
        final Path directory = Path.of(args[1]);
        final String address = args[2];
        final ProtocolOptions options = MultiProcessProtocolTest.OPTIONS;
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             ProtocolConnection connection = ConnectionEstablishment.connect(device, address, options,
                 Duration.ofSeconds(20))) {
            final IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);
            System.out.println("READY");
            System.out.flush();
            if (mode.equals("hang")) {
                while (!connection.isTerminated()) {
                    idle.idle(connection.doWork(System.nanoTime()));
                }
                return;
            }
            final int streams = Integer.parseInt(args[3]);
            final long count = Long.parseLong(args[4]);
            final long[] sequence = new long[streams + 1];
            final SplittableRandom random = new SplittableRandom(7);
            long sent = 0;
            int stream = 1;
            while (sent < count) {
                if (connection.error() != null) {
                    throw new IllegalStateException("connection failed: " + connection.error());
                }
                int work = 0;
                for (int burst = 0; burst < 64 && sent < count; burst++) {
                    final ProtocolStream out = connection.stream(stream);
                    final int length = MultiProcessProtocolTest.length(random, out.maxPayload());
                    final int index = out.claim(length + MultiProcessProtocolTest.HEADER);
                    if (index == ProtocolStream.BACK_PRESSURED) {
                        break;
                    }
                    MultiProcessProtocolTest.fill(out.buffer(), index, stream, sequence[stream]++, length);
                    out.commit(ProtocolStream.WHOLE);
                    sent++;
                    work++;
                    stream = stream == streams ? 1 : stream + 1;
                }
                work += connection.doWork(System.nanoTime());
                idle.idle(work);
            }
            // keep the connection served until the peer has read everything (it then disconnects)
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!connection.isTerminated() && System.nanoTime() < deadline) {
                idle.idle(connection.doWork(System.nanoTime()));
                device.pollEvents(connection::onEvent, 16);
            }
            System.out.println("SENT " + sent);
        }
    }
}

package io.rdmareactive.samples.docs;

// tag::remote[]
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.LocalRegion;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.RegionAccess;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.RemoteRegion;
import io.rdmareactive.codec.Codecs;
import java.time.Duration;
// end::remote[]

/** remote-memory.md's first example: a server's table, read by its peer with a one-sided READ. */
public final class RemoteTable {

    private RemoteTable() {
    }

    /** @return the long the server wrote at the start of its table, as the client read it from there */
    public static long readAnswer() {
        // tag::remote[]
        // the owner: a handler registers a read-only table on its connection and answers with the descriptor
        DisposableServer server = RdmaServer.create().provider("shm").handleStreams((kind, in, out) -> out.send(
            in.receive(Codecs.UTF8_STRING).next().map(ignored -> {
                LocalRegion table = in.connection().registerRegion(1 << 20, RegionAccess.REMOTE_READ);
                table.buffer().putLong(0, 42);            // fill it through its MutableDirectBuffer
                return table.descriptor();
            }), RegionDescriptor.CODEC)).bindNow();

        // the peer: asks for the descriptor, then reads the owner's memory without the owner's CPU
        Connection connection = RdmaClient.create().provider("shm").address(server.address()).connectNow();
        RegionDescriptor descriptor = connection.requestResponse("table?", Codecs.UTF8_STRING, RegionDescriptor.CODEC)
            .block(Duration.ofSeconds(10));
        RemoteRegion table = connection.remoteRegion(descriptor);
        LocalRegion landing = connection.registerRegion(4096);   // no rights: this side's own memory for reads and writes
        table.read(0, landing, 0, 64).block(Duration.ofSeconds(10));
        long answer = landing.buffer().getLong(0);               // 42
        // end::remote[]
        landing.close();
        connection.dispose();
        server.dispose();
        server.onDispose().block(Duration.ofSeconds(10));
        return answer;
    }
}

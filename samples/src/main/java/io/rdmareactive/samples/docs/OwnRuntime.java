package io.rdmareactive.samples.docs;

// tag::runtime[]
import io.rdmareactive.Connection;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaRuntime;
import io.rdmareactive.codec.Codecs;
import java.time.Duration;
// end::runtime[]

/** A runtime of one's own, as getting-started.md shows it: its loops, its counters, and disposing of it. */
public final class OwnRuntime {

    private OwnRuntime() {
    }

    /**
     * @param address a server that answers request/response calls with the request, at {@code shm}'s default
     *                directory
     * @return the answer to one call, made from a runtime of two busy-spinning loops
     */
    public static String call(final String address) {
        // tag::runtime[]
        RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").loops(2).idleStrategy("busy-spin").build();
        try {
            Connection connection = RdmaClient.create().runOn(runtime).address(address).connectNow();
            String answer = connection.requestResponse("ping", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(Duration.ofSeconds(10));
            System.out.println(runtime.name() + ": " + runtime.loopCount() + " loops (" + runtime.threads() + "), "
                + runtime.counters().messagesSent() + " messages sent");
            connection.dispose();
            return answer;
        } finally {
            runtime.dispose(); // it stops once its last connection and server are gone too
        }
        // end::runtime[]
    }
}

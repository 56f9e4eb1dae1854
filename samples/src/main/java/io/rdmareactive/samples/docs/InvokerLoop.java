package io.rdmareactive.samples.docs;

// tag::invoker[]
import io.rdmareactive.Connection;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaRuntime;
import io.rdmareactive.codec.Codecs;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
// end::invoker[]

/** threading.md's invoker mode: no loop thread; the caller's thread drives the runtime. */
public final class InvokerLoop {

    private InvokerLoop() {
    }

    /**
     * @param address a server that answers request/response calls with the request, at {@code shm}'s default
     *                directory
     * @return the answer to one call, polled for on the calling thread
     */
    public static String call(final String address) {
        // tag::invoker[]
        RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").invoker().build();
        try {
            Connection connection = RdmaClient.create().runOn(runtime).address(address).connectNow();
            CompletableFuture<String> answer = connection
                .requestResponse("ping", Codecs.UTF8_STRING, Codecs.UTF8_STRING).toFuture();
            IdleStrategy idle = new BackoffIdleStrategy();
            while (!answer.isDone()) {
                idle.idle(runtime.doWork());   // polls, delivers onNext on this thread, posts what was sent
            }
            connection.dispose();
            return answer.join();
        } finally {
            runtime.dispose();
        }
        // end::invoker[]
    }
}

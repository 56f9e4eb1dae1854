package io.rdmareactive.perf.compare.transport;

/** One way of moving messages between two threads of this JVM, set up once per run and opened per workload. */
public interface Transport extends AutoCloseable {

    /** @return the name used in options, results and plots, e.g. {@code aeron-ipc} */
    String name();

    /** @return how it is set up: the API used, the threads on each side and their idle strategies */
    String setup();

    /**
     * Connects a client and a server.
     *
     * @throws Exception when they cannot be connected
     */
    Session open(SessionSpec spec) throws Exception;

    @Override
    void close();
}

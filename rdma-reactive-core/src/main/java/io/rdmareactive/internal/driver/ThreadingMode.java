package io.rdmareactive.internal.driver;

/**
 * How a {@link DriverRunner} runs its agents (the duty cycles: a completion-queue poller per device, a conductor).
 *
 * <p>Whatever the mode, every agent's {@code doWork()} runs on one thread at a time, and the command queue is drained
 * on the thread that runs the first agent. Count the threads against the cores: a busy-spinning thread takes a whole
 * core (see {@link IdleStrategies}).
 */
public enum ThreadingMode {

    /**
     * One thread per agent, {@code rdma-driver-<name>-<role>}, each with its own idle strategy. The most parallel and
     * the most threads: for machines with cores to spare.
     */
    DEDICATED,

    /** One thread, {@code rdma-driver-<name>}, runs all agents in turn (an Agrona {@code CompositeAgent}). */
    SHARED,

    /**
     * No thread: the application drives the duty cycle by calling {@link DriverRunner#invoke()}, one thread at a time,
     * and so sends and polls without any hop between threads. That thread is the driver thread for as long as it is
     * inside {@code invoke()}.
     */
    INVOKER
}

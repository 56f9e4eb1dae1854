package io.rdmareactive.spi;

/** Receives completions from {@link CompletionQueue#poll(CompletionHandler, int)}; must not throw. */
@FunctionalInterface
public interface CompletionHandler {

    /** @param completion a flyweight valid only during this call */
    void onCompletion(Completion completion);
}

package io.rdmareactive.samples.docs;

/** Where {@link OffTheLoop} keeps orders: a stand-in for a database, whose calls block. */
@FunctionalInterface
public interface OrderStore {

    /**
     * @param order the order to keep
     * @return its key
     */
    long save(Order order);
}

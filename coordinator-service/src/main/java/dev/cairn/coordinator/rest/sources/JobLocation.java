package dev.cairn.coordinator.rest.sources;

/** Where the state of one job can be read right now. */
public sealed interface JobLocation {

    /** In this instance's stores, in the stream task of {@code partition}. */
    record Local(int partition) implements JobLocation {
    }

    /** In another coordinator instance, whose REST API listens at {@code host:port}. */
    record Remote(String host, int port) implements JobLocation {

        /** {@code host:port}, with an IPv6 host in brackets. */
        public String authority() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** Nowhere yet: no instance owns the job's partition (starting, rebalancing, restoring). */
    record Unavailable(String reason) implements JobLocation {
    }
}

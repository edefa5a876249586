package dev.cairn.coordinator.rest.sources;

import dev.cairn.core.state.CoordinatorState;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/** A state source with no stores: every job is where the test says, and local stores are never queryable. */
public final class FixedStateSource implements StateSource {

    volatile JobLocation location;

    public FixedStateSource(JobLocation location) {
        this.location = location;
    }

    @Override
    public JobLocation locate(String jobId) {
        return location;
    }

    @Override
    public CoordinatorState reader(int partition) {
        throw new InvalidStateStoreException("no stores in this test");
    }

    @Override
    public java.util.List<Integer> localPartitions() {
        return java.util.List.of();
    }

    @Override
    public java.util.List<JobLocation.Remote> otherInstances() {
        return java.util.List.of();
    }
}

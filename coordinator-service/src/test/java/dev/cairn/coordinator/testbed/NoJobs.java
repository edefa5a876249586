package dev.cairn.coordinator.testbed;

import dev.cairn.coordinator.rest.sources.JobLocation;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.core.state.CoordinatorState;
import java.util.List;

/** The state of an instance that owns no partition: every job is unavailable, and no store can be read. */
public final class NoJobs implements StateSource {

    @Override
    public JobLocation locate(String jobId) {
        return new JobLocation.Unavailable("no jobs here");
    }

    @Override
    public CoordinatorState reader(int partition) {
        throw new IllegalStateException("no partition is owned here");
    }

    @Override
    public List<Integer> localPartitions() {
        return List.of();
    }

    @Override
    public List<JobLocation.Remote> otherInstances() {
        return List.of();
    }
}

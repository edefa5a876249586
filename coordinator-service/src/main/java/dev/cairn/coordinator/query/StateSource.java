package dev.cairn.coordinator.query;

import dev.cairn.coordinator.streams.StoreReader;
import java.util.List;

/**
 * What the REST API needs from the coordinator's state: where a job's state lives, and the local stores of
 * one partition. {@link StreamsStateSource} answers from a running Kafka Streams instance.
 */
public interface StateSource {

    /** Where the state of {@code jobId} lives now (the job need not exist: its partition is what is located). */
    JobLocation locate(String jobId);

    /**
     * Read access to this instance's stores of one partition.
     *
     * @throws ApiException 503 when the stores are not queryable (rebalancing, restoring, migrated)
     */
    StoreReader reader(int partition);

    /**
     * The partitions whose stores this instance holds as the active owner right now (empty while it starts or
     * rebalances): with {@link #reader}, a way to visit every job this instance owns.
     */
    List<Integer> localPartitions();

    /** The other coordinator instances of the application, as their REST APIs are reached; empty when alone. */
    List<JobLocation.Remote> otherInstances();
}

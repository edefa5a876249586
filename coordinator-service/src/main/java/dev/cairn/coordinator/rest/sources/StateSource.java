package dev.cairn.coordinator.rest.sources;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.state.CoordinatorState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.ObjIntConsumer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

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
    CoordinatorState reader(int partition);

    /**
     * The partitions whose stores this instance holds as the active owner right now (empty while it starts or
     * rebalances): with {@link #reader}, a way to visit every job this instance owns.
     */
    List<Integer> localPartitions();

    /**
     * Every job of the partitions this instance owns, each turned into what the caller needs with the stores of its
     * partition (one scan of the jobs store per partition). A partition whose stores cannot be read now is handed to
     * {@code unreadable} with the reason, and its jobs are left out.
     */
    default <T> List<T> localJobs(BiFunction<CoordinatorState, JobState, T> each, ObjIntConsumer<String> unreadable) {
        List<T> found = new ArrayList<>();
        for (int partition : localPartitions()) {
            try {
                CoordinatorState stores = reader(partition);
                for (JobState job : stores.jobs()) {
                    found.add(each.apply(stores, job));
                }
            } catch (ApiException | InvalidStateStoreException e) {
                unreadable.accept(e.getMessage(), partition);
            }
        }
        return found;
    }

    /** The other coordinator instances of the application, as their REST APIs are reached; empty when alone. */
    List<JobLocation.Remote> otherInstances();
}

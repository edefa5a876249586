package dev.cairn.coordinator.rest.sources;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.streams.CoordinatorStores;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.coordinator.streams.StreamsStorage;
import dev.cairn.core.state.CoordinatorState;
import java.util.List;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Locates a job's state with {@link KafkaStreams#queryMetadataForKey}: the jobs store is keyed by job id
 * and every store of a stream task belongs to the same partition, so the partition of the job id in the
 * jobs store names the task (and the instance) that holds all of the job's state. Instances know each
 * other by their {@code application.server}, which is their REST API's host:port.
 */
public final class StreamsStateSource implements StateSource {

    private static final Serializer<String> JOB_ID = new StringSerializer();

    private final KafkaStreams streams;
    private final HostInfo self;

    /**
     * @param streams the running coordinator
     * @param self this instance's {@code application.server}
     */
    public StreamsStateSource(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    @Override
    public JobLocation locate(String jobId) {
        KeyQueryMetadata metadata;
        try {
            metadata = streams.queryMetadataForKey(CoordinatorStores.JOBS, jobId, JOB_ID);
        } catch (StreamsException | IllegalStateException e) {
            return new JobLocation.Unavailable("the coordinator is " + streams.state() + " (" + e.getMessage() + ")");
        }
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)
                || HostInfo.unavailable().equals(metadata.activeHost())) {
            return new JobLocation.Unavailable("no coordinator instance owns its partition yet (this one is "
                    + streams.state() + ")");
        }
        if (self.equals(metadata.activeHost())) {
            return new JobLocation.Local(metadata.partition());
        }
        return new JobLocation.Remote(metadata.activeHost().host(), metadata.activeHost().port());
    }

    /**
     * A reader of the partition's stores; answers 503 while they are rebuilt from the journal (they record no layout
     * of this release until the rebuild wrote them whole).
     */
    @Override
    public CoordinatorState reader(int partition) {
        boolean current;
        try {
            current = StoreLayout.isCurrent(this.<Bytes, Bytes>store(CoordinatorStores.TIMERS, partition));
        } catch (InvalidStateStoreException e) {
            throw ApiException.unavailable("the stores of partition " + partition
                    + " are not queryable right now (" + e.getMessage() + ")");
        }
        if (!current) {
            throw ApiException.unavailable("the stores of partition " + partition + " are being rebuilt from the "
                    + "journal; ask again once the rebuild is done (cairn_store_rebuild_remaining_records)");
        }
        return CoordinatorState.over(StreamsStorage.forQueries(name -> {
            try {
                return store(name, partition);
            } catch (InvalidStateStoreException e) {
                throw ApiException.unavailable("the stores of partition " + partition
                        + " are not queryable right now (" + e.getMessage() + ")");
            }
        }));
    }

    @Override
    public List<Integer> localPartitions() {
        TreeSet<Integer> partitions = new TreeSet<>();
        try {
            for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
                for (TaskMetadata task : thread.activeTasks()) {
                    partitions.add(task.taskId().partition());
                }
            }
        } catch (StreamsException | IllegalStateException e) {
            return List.of();
        }
        return List.copyOf(partitions);
    }

    @Override
    public List<JobLocation.Remote> otherInstances() {
        try {
            return streams.metadataForAllStreamsClients().stream()
                    .map(StreamsMetadata::hostInfo)
                    .filter(host -> !self.equals(host) && !HostInfo.unavailable().equals(host))
                    .distinct()
                    .map(host -> new JobLocation.Remote(host.host(), host.port()))
                    .toList();
        } catch (StreamsException | IllegalStateException e) {
            return List.of();
        }
    }

    private <K, V> ReadOnlyKeyValueStore<K, V> store(String name, int partition) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<K, V>keyValueStore())
                .withPartition(partition));
    }
}

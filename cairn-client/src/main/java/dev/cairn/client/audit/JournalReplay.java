package dev.cairn.client.audit;

import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Audit replay in one call: reads {@code cairn.journal} from the beginning to its current end (committed records
 * only, with the audit's {@link JournalReader}) and folds every event with the coordinator's own
 * {@link CheckpointEvolver} ({@link Replay}), rebuilding the state the coordinator's stores hold — checkpoint by
 * checkpoint, bit for bit. Unlike {@code cairn audit}, which reports a record that does not decode and goes on,
 * it fails on one: a test that compares a replay with the live stores wants every record.
 */
public final class JournalReplay {

    /** What a replay rebuilt. */
    public record Result(CoordinatorState state, long events) {}

    private final Map<String, Object> clientConfig;
    private final CoordinatorSettings settings;

    /**
     * @param bootstrapServers the cluster to read from
     * @param clientProperties extra client properties (security settings), may be empty
     * @param settings the settings the coordinator ran with (they bound what it keeps)
     */
    public JournalReplay(String bootstrapServers, Map<String, String> clientProperties, CoordinatorSettings settings) {
        this.clientConfig = new HashMap<>(clientProperties);
        clientConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.settings = settings;
    }

    /**
     * Replays the whole journal topic, up to the end it has when the replay starts.
     *
     * @throws AuditException when the journal cannot be read to its end within {@code timeout}
     * @throws IllegalStateException when a record does not decode
     */
    public Result replay(String journalTopic, Duration timeout) {
        Replay replay = new Replay(settings, null);
        new JournalReader(clientConfig).read(journalTopic, JournalReader.Bounds.ALL, replay::accept,
                JournalReader.Progress.NONE, timeout);
        if (replay.skipped() > 0) {
            throw new IllegalStateException(replay.skipped() + " records of " + journalTopic + " did not decode");
        }
        return new Result(replay.state(), replay.applied());
    }
}

package dev.cairn.faults;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.client.audit.JournalReplay;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.views.JobViews;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Journal replay against the live store: folds the whole journal with the coordinator's own evolver
 * ({@link JournalReplay}), renders each job's replayed state as {@code GET /jobs/{id}/checkpoints} would
 * ({@link JobViews#checkpoints}) and compares it, as JSON, with what a running coordinator answers.
 */
final class LiveStoreAudit {

    private LiveStoreAudit() {
    }

    /** The jobs whose live view differs from the replayed one (empty when replay == live store). */
    static List<String> differences(String bootstrapServers, String journalTopic, List<String> jobIds,
            CoordinatorProcess anyInstance) {
        JournalReplay.Result replay = new JournalReplay(bootstrapServers, Map.of(), CoordinatorSettings.DEFAULTS)
                .replay(journalTopic, Duration.ofSeconds(60));
        List<String> differences = new ArrayList<>();
        for (String jobId : jobIds) {
            CoordinatorProcess.HttpAnswer live = anyInstance.get("/jobs/" + jobId + "/checkpoints");
            Optional<JobState> replayed = replay.state().job(jobId);
            if (live.status() != 200 || replayed.isEmpty()) {
                differences.add(jobId + ": live answered " + live.status() + ", replay has "
                        + (replayed.isPresent() ? "the job" : "no such job"));
                continue;
            }
            JobState job = replayed.get();
            JsonNode expected = read(new String(Json.bytes(JobViews.checkpoints(job, replay.state().history(job),
                    id -> replay.state().progress(jobId, id))), java.nio.charset.StandardCharsets.UTF_8));
            JsonNode actual = read(live.body());
            if (!expected.equals(actual)) {
                differences.add(jobId + ": live " + actual + " but replay " + expected);
            }
        }
        return differences;
    }

    private static JsonNode read(String body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }
}

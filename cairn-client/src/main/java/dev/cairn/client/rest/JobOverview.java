package dev.cairn.client.rest;

import static dev.cairn.client.rest.RequestState.number;
import static dev.cairn.client.rest.RequestState.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One job of {@code GET /jobs} (Flink's job overview).
 *
 * @param id the job id
 * @param status RUNNING, SUSPENDED, FINISHED, CANCELED or FAILED
 * @param pendingCheckpoints how many of its checkpoints are in progress
 * @param latestCompletedId its newest completed checkpoint, {@code null} when none
 * @param counts its checkpoint counts
 * @param lastCheckpoint its newest checkpoint, {@code null} when none
 */
public record JobOverview(String id, String status, int pendingCheckpoints, Long latestCompletedId,
        Checkpoints.Counts counts, Checkpoints.Summary lastCheckpoint) {

    /**
     * What {@code GET /jobs} answered.
     *
     * @param jobs every job the instances listed
     * @param unreachable the instances that did not answer
     */
    public record Listing(List<JobOverview> jobs, List<String> unreachable) {

        public Listing {
            jobs = List.copyOf(jobs);
            unreachable = List.copyOf(unreachable);
        }

        static Listing of(JsonNode json) {
            List<JobOverview> jobs = new ArrayList<>();
            json.path("jobs").forEach(job -> jobs.add(new JobOverview(text(job, "id", text(job, "jid", null)),
                    text(job, "status", text(job, "state", null)), job.path("pending_checkpoints").asInt(),
                    number(job, "latest_completed_id"), Checkpoints.Counts.of(job.get("counts")),
                    Checkpoints.Summary.of(job.get("last_checkpoint")))));
            List<String> unreachable = new ArrayList<>();
            json.path("unreachable").forEach(instance -> unreachable.add(instance.asText()));
            return new Listing(jobs, unreachable);
        }
    }
}

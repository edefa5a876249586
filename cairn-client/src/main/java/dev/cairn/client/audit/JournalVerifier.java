package dev.cairn.client.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.core.audit.ViewDiff;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.views.StateViews;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Compares a replayed journal with the live stores, as the REST API shows them (pure but for the {@link LiveSource}
 * it is given): per job of the replay, {@code GET /jobs/{id}}, {@code GET /jobs/{id}/checkpoints} and
 * {@code GET /jobs/{id}/checkpoints/latest-completed} against the same views rendered from the replay
 * ({@link StateViews}), naming every difference ({@link ViewDiff}); then {@code GET /jobs}, naming every live job
 * the journal never registered and every instance that listing could not reach.
 */
public final class JournalVerifier {

    /**
     * One difference.
     *
     * @param jobId the job
     * @param view {@code job}, {@code checkpoints} or {@code latest-completed}
     * @param path where in the view, e.g. {@code counts.completed}; empty for the whole view
     * @param journal the replayed value (JSON)
     * @param live the live value (JSON, or the status and error of a failed GET)
     */
    public record Difference(String jobId, String view, String path, String journal, String live) {

        /** {@code job orders: checkpoints counts.completed journal=5 live=4}. */
        public String describe() {
            return "job " + jobId + ": " + view + (path.isEmpty() ? "" : " " + path) + " journal=" + journal
                    + " live=" + live;
        }
    }

    /** Answers GETs of the REST API. */
    public interface LiveSource {

        /** A GET's answer. */
        record Answer(int status, String body) {}

        /**
         * @param path e.g. {@code /jobs/orders/checkpoints}, the job id percent-encoded
         * @throws AuditException when the API cannot be reached
         */
        Answer get(String path);
    }

    /** The job id of a difference about the listing of every job. */
    private static final String ALL_JOBS = "*";

    private JournalVerifier() {
    }

    /** Every difference of every job of the replay, jobs in id order. */
    public static List<Difference> verify(CoordinatorState replayed, LiveSource live) {
        List<Difference> differences = new ArrayList<>();
        for (String jobId : replayed.jobIds()) {
            String base = "/jobs/" + URLEncoder.encode(jobId, StandardCharsets.UTF_8).replace("+", "%20");
            compare(jobId, "job", StateViews.job(replayed, jobId), live.get(base), differences);
            compare(jobId, "checkpoints", StateViews.checkpoints(replayed, jobId),
                    live.get(base + "/checkpoints"), differences);
            compare(jobId, "latest-completed", StateViews.latestCompleted(replayed, jobId),
                    live.get(base + "/checkpoints/latest-completed"), differences);
        }
        liveOnly(replayed, live.get("/jobs"), differences);
        return differences;
    }

    /**
     * The jobs {@code GET /jobs} lists that the journal never registered, and the instances that listing could
     * not reach (their jobs went unchecked).
     */
    private static void liveOnly(CoordinatorState replayed, LiveSource.Answer jobs, List<Difference> out) {
        if (jobs.status() != 200) {
            out.add(new Difference(ALL_JOBS, "jobs", "", "(list)", "HTTP " + jobs.status() + " " + jobs.body()));
            return;
        }
        JsonNode listing;
        try {
            listing = Json.MAPPER.readTree(jobs.body());
        } catch (IOException e) {
            out.add(new Difference(ALL_JOBS, "jobs", "", "(list)", "not JSON: " + e.getMessage()));
            return;
        }
        Set<String> journal = new HashSet<>(replayed.jobIds());
        for (JsonNode job : listing.path("jobs")) {
            String id = job.path("id").asText();
            if (!journal.contains(id)) {
                out.add(new Difference(id, "jobs", "", ViewDiff.ABSENT, "(present)"));
            }
        }
        if (!listing.path("unreachable").isEmpty()) {
            out.add(new Difference(ALL_JOBS, "jobs", "unreachable", "[]", listing.path("unreachable").toString()));
        }
    }

    private static void compare(String jobId, String view, Optional<?> replayed, LiveSource.Answer live,
            List<Difference> out) {
        if (replayed.isEmpty() && live.status() == 404) {
            return;
        }
        if (replayed.isEmpty()) {
            out.add(new Difference(jobId, view, "", ViewDiff.ABSENT, "HTTP " + live.status()));
            return;
        }
        JsonNode journal = tree(new String(Json.bytes(replayed.get()), StandardCharsets.UTF_8));
        if (live.status() != 200) {
            out.add(new Difference(jobId, view, "", "(present)", "HTTP " + live.status() + " " + live.body()));
            return;
        }
        JsonNode liveView;
        try {
            liveView = Json.MAPPER.readTree(live.body());
        } catch (IOException e) {
            out.add(new Difference(jobId, view, "", "(present)", "not JSON: " + e.getMessage()));
            return;
        }
        for (ViewDiff.Difference d : ViewDiff.of(journal, liveView)) {
            out.add(new Difference(jobId, view, d.path(), d.journal(), d.live()));
        }
    }

    private static JsonNode tree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("a view written by Jackson does not read back: " + json, e);
        }
    }
}

package dev.cairn.sidecar.core;

import java.util.Objects;

/**
 * A coordinator-side participant of a job (Flink: a master hook or an operator coordinator), run as a sidecar
 * role: it snapshots when a {@code ParticipantsTriggered} names it, before the tasks are triggered, and answers
 * with {@code ParticipantAcknowledged} or {@code ParticipantDeclined}. It has no attempt and registers nothing.
 *
 * @param jobId the job
 * @param name the participant's name, as the job spec lists it
 */
public record Participant(String jobId, String name) implements SidecarIdentity {

    public Participant {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return "participant " + name + " of job " + jobId;
    }
}

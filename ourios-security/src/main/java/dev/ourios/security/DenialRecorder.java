package dev.ourios.security;

/** Counts refusals, e.g. into the {@code ourios.auth.denials} metric; called once per denied request. */
@FunctionalInterface
public interface DenialRecorder {
    void denied(DenialReason reason);
}

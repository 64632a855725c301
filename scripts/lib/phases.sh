# Per-phase timing for scripts/test and the scripts it calls: `phase NAME`
# starts a phase (ending the one before); the script that sourced this first
# prints the table of every phase, and the total, when it exits.
# `phase_start_job NAME` / `phase_end_job NAME` time work running beside the
# sequence (a background job), recorded as its own row.
if [ -z "${REPRISE_PHASES_FILE:-}" ]; then
  REPRISE_PHASES_FILE=$(mktemp)
  REPRISE_PHASES_OWNER=$$
  REPRISE_PHASES_T0=$(date +%s)
  export REPRISE_PHASES_FILE REPRISE_PHASES_OWNER REPRISE_PHASES_T0
fi
phase_name=""
phase_t=0

phase_close() {
  if [ -n "$phase_name" ]; then
    printf '%s\t%s\n' "$phase_name" $(( $(date +%s) - phase_t )) >> "$REPRISE_PHASES_FILE"
    phase_name=""
  fi
}

phase() {
  phase_close
  phase_name=$1
  phase_t=$(date +%s)
  printf '\n=== %s\n' "$phase_name" >&2
}

phase_table() {
  phase_close
  [ "$REPRISE_PHASES_OWNER" = "$$" ] || return 0
  local total=$(( $(date +%s) - REPRISE_PHASES_T0 ))
  {
    printf '\nphase%*sseconds\n' 45 ''
    while IFS=$'\t' read -r name secs; do
      printf '%-50s%7s\n' "$name" "$secs"
    done < "$REPRISE_PHASES_FILE"
    printf '%-50s%7s  (%dm%02ds)\n' "total (wall clock)" "$total" $((total / 60)) $((total % 60))
  } >&2
  rm -f "$REPRISE_PHASES_FILE"
}

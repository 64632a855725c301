# Per-phase timing for scripts/test and the scripts it calls: `phase NAME`
# starts a phase (ending the one before); the script that sourced this first
# prints the table of every phase, and the total, when it exits.
# Each row also says how busy the machine's CPUs were during it (from
# /proc/stat): a phase far below 100% waits more than it works.
if [ -z "${REPRISE_PHASES_FILE:-}" ]; then
  REPRISE_PHASES_FILE=$(mktemp)
  REPRISE_PHASES_OWNER=$$
  REPRISE_PHASES_T0=$(date +%s)
  export REPRISE_PHASES_FILE REPRISE_PHASES_OWNER REPRISE_PHASES_T0
fi
phase_name=""
phase_t=0
phase_cpu=""

# "BUSY TOTAL": the CPUs' busy and total ticks since boot.
phase_ticks() {
  local _cpu user nice system idle iowait rest
  read -r _cpu user nice system idle iowait rest < /proc/stat
  local total=$(( user + nice + system + idle + iowait ))
  for t in $rest; do total=$(( total + t )); done
  echo "$(( total - idle - iowait )) $total"
}

phase_close() {
  if [ -n "$phase_name" ]; then
    local busy0 total0 busy1 total1
    read -r busy0 total0 <<< "$phase_cpu"
    read -r busy1 total1 <<< "$(phase_ticks)"
    local share=$(( total1 > total0 ? 100 * (busy1 - busy0) / (total1 - total0) : 0 ))
    printf '%s\t%s\t%s\n' "$phase_name" $(( $(date +%s) - phase_t )) "$share" >> "$REPRISE_PHASES_FILE"
    phase_name=""
  fi
}

phase() {
  phase_close
  phase_name=$1
  phase_t=$(date +%s)
  phase_cpu=$(phase_ticks)
  printf '\n=== %s\n' "$phase_name" >&2
}

phase_table() {
  phase_close
  [ "$REPRISE_PHASES_OWNER" = "$$" ] || return 0
  local total=$(( $(date +%s) - REPRISE_PHASES_T0 ))
  {
    printf '\nphase%*sseconds  cpu busy\n' 45 ''
    while IFS=$'\t' read -r name secs share; do
      printf '%-50s%7s  %7s%%\n' "$name" "$secs" "$share"
    done < "$REPRISE_PHASES_FILE"
    printf '%-50s%7s  (%dm%02ds)\n' "total (wall clock)" "$total" $((total / 60)) $((total % 60))
  } >&2
  rm -f "$REPRISE_PHASES_FILE"
}

#!/usr/bin/env bash
# haec calibrate power: wattmeter logs -> host power properties, RAPL detection
# in a fake sysfs tree, and the one-line fallback message.
source "$(dirname "$0")/common.sh"
# A log: 2 s ramp at RAMP W, 16 s at LEVEL W, 2 s ramp (the fitter trims a tenth at each end).
log() { { echo "time,watts"; echo "0,$2"; for t in $(seq 2 17); do echo "$t,$1"; done; echo "18,$2"; echo "20,$2"; } > "$3"; }
log 92.75 60 idle0.csv; log 114.62 60 one0.csv; log 174.38 60 all0.csv
log 90 60 idle1.csv;    log 105 60 one1.csv;    log 145 60 all1.csv
printf 'pstate,load,file\n0,idle,idle0.csv\n0,one,one0.csv\n0,all,all0.csv\n1,idle,idle1.csv\n1,one,one1.csv\n1,all,all1.csv\n' > m.csv
mkdir empty-root
"$haec" calibrate power m.csv --cores 12 --sysfs-root empty-root --out fit > out.txt
cat out.txt
# one line says there is no RAPL and that the logs are used
[ "$(grep -c 'no RAPL counters' out.txt)" -eq 1 ]
# taurus-8 pstate 0 (plugins/power/README.md): epsilon = 174.38 - (174.38-114.62)*12/11 = 109.1872727
# pstate 1: P_dyn = 40*12/11 = 43.63636..., epsilon = 101.3636364
grep -qx '<prop id="haec:wattage_calibration" value="92.75:114.62:174.38,90:105:145"/>' fit/host_properties.xml
grep -qx '<prop id="wattage_per_state" value="92.75:109.1872727:174.38,90:101.3636364:145"/>' fit/host_properties.xml
[ -s fit/power.png ]
# RAPL detection in a fake tree; --rapl-log samples it (a frozen counter: 0 W)
mkdir -p fake/sys/class/powercap/intel-rapl:0
echo package-0 > fake/sys/class/powercap/intel-rapl:0/name
echo 123456 > fake/sys/class/powercap/intel-rapl:0/energy_uj
"$haec" calibrate power --sysfs-root fake --rapl-log rapl.csv --seconds 0.3 > rapl.txt
grep -q "RAPL counters in fake/sys/class/powercap: package-0" rapl.txt
head -1 rapl.csv | grep -qx "time,watts"
[ "$(tail -n +2 rapl.csv | wc -l)" -ge 2 ] && ! tail -n +2 rapl.csv | grep -qv ',0$'
# without counters --rapl-log is refused in one line, nothing written
if "$haec" calibrate power --sysfs-root empty-root --rapl-log r2.csv --seconds 1 2> err.txt; then exit 1; fi
grep -q "exposes no RAPL counters" err.txt && [ ! -e r2.csv ]
echo "calibrate power passed"

#!/usr/bin/env ruby
# HCIBench's rules for reading a Vdbench console (its parseVdbResult.rb and
# get-xls-vdbench.rb, vmware-labs/hci-benchmark-appliance), written anew
# from reading them: what HCIBench would take from CONSOLE, as JSON.
#   a line with "Vdbench distribution:" gives the version (third word);
#   a line with "RD=" is a run: its words from the third on;
#   a line with " avg" is a run's total: its words from the third on
#   (a line with "avg" and no blank before it: from the second on);
#   a line of only digits, ':', '.' and blanks, longer than 40 characters,
#   is an interval row; a row whose interval number is below the previous
#   one's starts the next run's rows.
# The figures are taken at HCIBench's positions: a total's iops [0],
# MB/s [1], bytes [2], read% [3], resp [4], read resp [5], write resp [6],
# stddev [8 + o], queue depth [9 + o]; an interval's number [1], iops [2],
# MB/s [3], resp [6], read resp [7], write resp [8], stddev [10 + o]; o is
# 1 for vdbench50407, else 0.
# usage: hcibench_rules.rb CONSOLE
require 'json'

version = 'vdbench50406'
rds = []
avgs = []
runs = []
File.read(ARGV[0]).gsub(/\r\n?/, "\n").each_line do |line|
  version = line.split(' ')[2] if line =~ /Vdbench distribution:/
  rds.push(line.split(' ')[2..-1].join(' ')) if line =~ /RD=/
  if line =~ / avg/
    avgs.push(line.split(' ')[2..-1])
  elsif line =~ /avg/
    avgs.push(line.split(' ')[1..-1])
  end
  next unless line =~ /^[0-9:. ]+$/ && line.size > 40
  row = line.split(' ')
  runs.push([]) if runs.empty? || runs[-1].empty? == false && runs[-1][-1][1].to_i > row[1].to_i
  runs[-1].push(row)
end
o = version == 'vdbench50407' ? 1 : 0
out = {
  'version' => version,
  'rds' => rds,
  'avgs' => avgs.map do |m|
    { 'iops' => m[0].to_f, 'mbps' => m[1].to_f, 'bytes' => m[2].to_f,
      'readpct' => m[3].to_f, 'resp' => m[4].to_f, 'rresp' => m[5].to_f,
      'wresp' => m[6].to_f, 'stddev' => m[8 + o].to_f, 'qd' => m[9 + o].to_f }
  end,
  'runs' => runs.map do |rows|
    rows.map do |r|
      { 'interval' => r[1].to_i, 'iops' => r[2].to_f, 'mbps' => r[3].to_f,
        'resp' => r[6].to_f, 'rresp' => r[7].to_f, 'wresp' => r[8].to_f,
        'stddev' => r[10 + o].to_f }
    end
  end
}
puts JSON.generate(out)

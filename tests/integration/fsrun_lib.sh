# Shared by tests that need a short file-system run of several operations
# (export_influx.sh, report_fs.sh), sourced after lib.sh.

# fs_mixed_vdb FILE ANCHOR [OPTS]: a format of a small tree under ANCHOR, a run of
# deletes (2 s), then creates and getattrs (3 s, 1 s intervals; OPTS, as
# ",warmup=1", added to that rd).
fs_mixed_vdb() {
	cat > "$1" <<VDB
fsd=fsd1,anchor=$2,depth=1,width=2,files=200,size=4k
fwd=del,fsd=fsd1,operation=delete,fileselect=random,threads=1
fwd=cre,fsd=fsd1,operation=create,fileselect=random,threads=1
fwd=get,fsd=fsd1,operation=getattr,fileselect=random,threads=1
rd=rd,fwd=del,fwdrate=100,format=yes,elapsed=2,interval=1
rd=rc,fwd=(cre,get),fwdrate=200,format=no,elapsed=3${3:-},interval=1
VDB
}

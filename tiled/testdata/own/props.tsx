<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="props" tilewidth="32" tileheight="32" tilecount="2" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0">
  <properties>
   <property name="kind" value="terrain"/>
  </properties>
  <image source="terrain.png" width="32" height="32"/>
 </tile>
 <tile id="1">
  <image source="sky.png" width="8" height="8"/>
 </tile>
</tileset>
